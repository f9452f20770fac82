import type { ToolAnnotations } from '@modelcontextprotocol/server';

/**
 * Hints for clients (untrusted metadata: they never authorize anything). Every tool here only reads; the READ
 * tools reach the appliance (open world), pfsense_mcp_info reports local process facts only.
 */
export function readToolAnnotations(title: string): ToolAnnotations {
  return Object.freeze({ title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true });
}

export function localToolAnnotations(title: string): ToolAnnotations {
  return Object.freeze({ title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
}
