// The write tool's name, its structured result, and the one way the suites call it: an error result throws (with
// its text), and the text block must be the same JSON as structuredContent (docs/DESIGN.md §6).
import type { Client } from '@modelcontextprotocol/client';

export const WRITE_TOOL = 'pfsense_set_firewall_alias_description';

export interface WriteResult {
  readonly status: string;
  readonly operation_id: string | null;
  readonly contract_id: string | null;
  readonly pending_request: string | null;
  readonly earlier_request_expired_at?: string;
  readonly next_step: string;
}

/**
 * Calls the write tool; returns the structured result (plus its text block as `raw`). `timeoutMs` is the SDK's
 * request timeout: the suites with many process starts on a loaded machine give it more than the default.
 */
export async function callWrite(
  client: Client,
  args: Record<string, unknown>,
  options: { readonly timeoutMs?: number; readonly tool?: string } = {},
): Promise<WriteResult & { raw: string }> {
  const request = { name: options.tool ?? WRITE_TOOL, arguments: args };
  const r = (await (options.timeoutMs === undefined
    ? client.callTool(request)
    : client.callTool(request, { timeout: options.timeoutMs }))) as {
    content: { type: string; text: string }[];
    structuredContent?: unknown;
    isError?: boolean;
  };
  const text = r.content[0]?.text ?? '';
  if (r.isError === true) throw new Error(`write tool error: ${text}`);
  const structured = r.structuredContent as WriteResult;
  if (JSON.stringify(structured) !== text) throw new Error('text block differs from structuredContent');
  return { ...structured, raw: text };
}
