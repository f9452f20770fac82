// The stable error code a failed tool call carries in its text block (`{"error":{"code":…}}`, docs/DESIGN.md §6),
// read without assuming the call failed: a result with no error gives undefined.

/** The `error.code` of `result`'s first text block, or undefined when it carries none. */
export function toolErrorCode(result: object): string | undefined {
  const text = (result as { content?: { text?: string }[] }).content?.[0]?.text ?? '{}';
  return (JSON.parse(text) as { error?: { code?: string } }).error?.code;
}
