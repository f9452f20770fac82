import type { ToolAnnotations } from '@modelcontextprotocol/server';

/**
 * Hints for clients (untrusted metadata: they never authorize anything). The READ tools reach the appliance
 * (open world), pfsense_mcp_info reports local process facts only; the one write tool overwrites a value.
 */
export function readToolAnnotations(title: string): ToolAnnotations {
  return Object.freeze({ title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true });
}

export function localToolAnnotations(title: string): ToolAnnotations {
  return Object.freeze({ title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
}

/** The write tool: it overwrites a value (destructive), asking again with the same arguments resumes (idempotent). */
export function writeToolAnnotations(title: string): ToolAnnotations {
  return Object.freeze({ title, readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true });
}
