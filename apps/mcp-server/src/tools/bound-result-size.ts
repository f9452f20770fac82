import { ToolCallError, ToolErrorCode } from './tool-error-code.js';

/** No single tool result (the whole CallToolResult, both copies of the payload) exceeds this many bytes. */
export const MAX_RESULT_BYTES = 1024 * 1024;

export interface BoundedResult {
  readonly structured: Record<string, unknown>;
  readonly text: string;
}

/** Cuts a list result to its first `keep` items and marks it truncated (pfsense-read's truncateReadResult). */
export type CutResult = (keep: number) => Record<string, unknown>;

// Envelope of a CallToolResult around the two payload copies: {"content":[{"type":"text","text":…}],"structuredContent":…}
const FRAME_OVERHEAD_BYTES = 128;

function measure(structured: Record<string, unknown>, maxBytes: number): { text: string; bytes: number } {
  const text = JSON.stringify(structured);
  // The result carries the payload twice: as structuredContent and as a JSON text block (escaped once more).
  // Cheap upper bound first (UTF-16 unit ≤ 3 UTF-8 bytes; escaping ≤ 6×): most results are far below the limit.
  if (text.length * 9 + FRAME_OVERHEAD_BYTES <= maxBytes) return { text, bytes: text.length * 9 + FRAME_OVERHEAD_BYTES };
  const textBytes = Buffer.byteLength(text);
  return { text, bytes: textBytes + Buffer.byteLength(JSON.stringify(text)) + FRAME_OVERHEAD_BYTES };
}

/**
 * Keeps a result under `maxBytes`. A list result is cut to its longest prefix that fits and says so
 * (`truncated: true`, `next_offset` = where to continue). A result that cannot be cut — one object, or a
 * first item alone over the limit — is a RESULT_TOO_LARGE error, never a silently partial answer.
 */
export function boundResultSize(
  structured: Record<string, unknown>,
  itemCount: number,
  cut: CutResult | null,
  maxBytes: number = MAX_RESULT_BYTES,
): BoundedResult {
  const whole = measure(structured, maxBytes);
  if (whole.bytes <= maxBytes) return { structured, text: whole.text };
  if (cut === null) throw new ToolCallError(ToolErrorCode.RESULT_TOO_LARGE);
  // Longest prefix that fits: binary search, one serialization per probe (≤ 10 probes for 1,000 items).
  let lo = 1;
  let hi = itemCount - 1;
  let best: BoundedResult | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const candidate = cut(mid);
    const size = measure(candidate, maxBytes);
    if (size.bytes <= maxBytes) {
      best = { structured: candidate, text: size.text };
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  if (best === null) throw new ToolCallError(ToolErrorCode.RESULT_TOO_LARGE);
  return best;
}
