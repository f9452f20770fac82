/** What this build is. Reported by `--version` and `pfsense_mcp_info`. */
export const SERVER_NAME = 'pfsense-mcp';
export const SERVER_VERSION = '0.1.0';
