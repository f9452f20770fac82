import { ToolCallError, ToolErrorCode } from './tool-error-code.js';

/** No single tool result (the whole CallToolResult, both copies of the payload) exceeds this many bytes. */
export const MAX_RESULT_BYTES = 1024 * 1024;

export interface BoundedResult {
  readonly structured: Record<string, unknown>;
  readonly text: string;
}

/** Cuts a list result to its first `keep` items and marks it truncated (pfsense-read's truncateReadResult). */
export type CutResult = (keep: number) => Record<string, unknown>;

// Everything of a CallToolResult besides the two payload copies: {"content":[{"type":"text","text":…}],
// "structuredContent":…} (~60 bytes) and, on protocol revision 2026-07-28, the `resultType` discriminator and
// the server identity the SDK stamps into `_meta` (~120 bytes). Generous, so the bound holds in both eras.
const FRAME_OVERHEAD_BYTES = 512;

/** Bytes of the whole result carrying `text` twice: raw (structuredContent) and JSON-escaped (text block). */
function fits(text: string, maxBytes: number): boolean {
  // Cheap upper bound first (a UTF-16 unit is ≤ 3 UTF-8 bytes, escaping ≤ 6×): most results are far below.
  if (text.length * 9 + FRAME_OVERHEAD_BYTES <= maxBytes) return true;
  return Buffer.byteLength(text) + Buffer.byteLength(JSON.stringify(text)) + FRAME_OVERHEAD_BYTES <= maxBytes;
}

/** What one list item adds to the whole result: its JSON in both copies plus a separator in each. */
function itemCost(item: unknown): number {
  const json = JSON.stringify(item) ?? 'null';
  return Buffer.byteLength(json) + Buffer.byteLength(JSON.stringify(json)) - 2 + 2;
}

/**
 * Keeps a result under `maxBytes`. A list result is cut to its longest prefix that fits and says so
 * (`truncated: true`, `next_offset` = where to continue). A result that cannot be cut — one object, or a
 * first item alone over the limit — is a RESULT_TOO_LARGE error, never a silently partial answer.
 * Linear in the result size: one pass over the items, then one serialization of the cut result.
 */
export function boundResultSize(
  structured: Record<string, unknown>,
  items: readonly unknown[] | null,
  cut: CutResult | null,
  maxBytes: number = MAX_RESULT_BYTES,
): BoundedResult {
  const text = JSON.stringify(structured);
  if (fits(text, maxBytes)) return { structured, text };
  if (cut === null || items === null || items.length < 2) throw new ToolCallError(ToolErrorCode.RESULT_TOO_LARGE);

  const empty = JSON.stringify(cut(0));
  let budget = maxBytes - (Buffer.byteLength(empty) + Buffer.byteLength(JSON.stringify(empty)) + FRAME_OVERHEAD_BYTES);
  let keep = 0;
  while (keep < items.length - 1) {
    budget -= itemCost(items[keep]);
    if (budget < 0) break;
    keep += 1;
  }
  // The estimate is exact up to separators; confirm on the real serialization and step back if needed.
  for (; keep >= 1; keep -= 1) {
    const candidate = cut(keep);
    const candidateText = JSON.stringify(candidate);
    if (fits(candidateText, maxBytes)) return { structured: candidate, text: candidateText };
  }
  throw new ToolCallError(ToolErrorCode.RESULT_TOO_LARGE);
}
