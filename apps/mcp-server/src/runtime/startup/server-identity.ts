/** What this build is. Reported by `--version`, `pfsense_mcp_info` and the MCP server identity (both eras). */
export const SERVER_NAME = 'pfsense-mcp';
export const SERVER_VERSION = '0.1.0';
/**
 * The title clients show for this server: it names the active profile, so a `write_protected` server that lists
 * the write tool is never titled read-only (issue 36). Every reply that carries the server's identity uses it.
 */
export function serverTitle(profile: string): string {
  return `pfSense (profile ${profile})`;
}
