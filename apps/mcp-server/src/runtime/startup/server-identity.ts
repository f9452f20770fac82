/** What this build is. Reported by `--version`, `pfsense_mcp_info` and the MCP server identity (both eras). */
export const SERVER_NAME = 'pfsense-mcp';
export const SERVER_VERSION = '0.1.0';
export const SERVER_TITLE = 'pfSense (read-only)';
