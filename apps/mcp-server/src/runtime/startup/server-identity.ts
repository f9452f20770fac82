import { PRODUCT_VERSION } from '@pfsense-mcp/foundation';

/** What this build is. Reported by `--version`, `pfsense_mcp_info` and the MCP server identity (both eras). */
export const SERVER_NAME = 'pfsense-mcp';
export const SERVER_VERSION = PRODUCT_VERSION;
/**
 * The title clients show for this server: it names the active profile, so a `write_protected` server that lists
 * the write tool is never titled read-only. Every reply that carries the server's identity uses it.
 */
export function serverTitle(profile: string): string {
  return `pfSense (profile ${profile})`;
}
