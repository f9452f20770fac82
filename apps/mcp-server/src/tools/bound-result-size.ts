import { assertObject } from '@pfsense-mcp/foundation';
import { ToolCallError, ToolErrorCode } from './tool-error-code.js';

/** No single tool result (the whole CallToolResult, both copies of the payload) exceeds this many bytes. */
export const MAX_RESULT_BYTES = 1024 * 1024;

export interface BoundedResult {
  readonly structured: Record<string, unknown>;
  /** Exactly `JSON.stringify(structured)`. */
  readonly text: string;
}

/** Cuts a list result to its first `keep` items and marks it truncated (pfsense-read's truncateReadResult). */
export type CutResult = (keep: number) => Record<string, unknown>;

// Everything of a CallToolResult besides the two payload copies: {"content":[{"type":"text","text":…}],
// "structuredContent":…} (~60 bytes) and, on protocol revision 2026-07-28, the `resultType` discriminator and
// the server identity the SDK stamps into `_meta` (~120 bytes). Generous, so the bound holds in both eras.
const FRAME_OVERHEAD_BYTES = 512;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * What re-escaping JSON text as a JSON string adds, in bytes: one `\` per `"` and per `\`. Nothing else of a
 * JSON.stringify output is escaped again: it holds no raw control character and no lone surrogate (both
 * already come out as `\u` escapes), and other non-ASCII stays as it is.
 */
function escapeExtraBytes(json: string): number {
  let extra = 0;
  for (let i = 0; i < json.length; i += 1) {
    const c = json.charCodeAt(i);
    if (c === QUOTE || c === BACKSLASH) extra += 1;
  }
  return extra;
}

/** Bytes that `json` adds to the result: raw (structuredContent) plus escaped (the text block's string). */
function bothCopiesBytes(json: string): number {
  const bytes = Buffer.byteLength(json);
  return bytes + bytes + escapeExtraBytes(json);
}

/** The result as it goes out for JSON text `text`: both copies, the text's two quotes, the frame. */
function resultBytes(text: string): number {
  return bothCopiesBytes(text) + 2 + FRAME_OVERHEAD_BYTES;
}

/** The JSON of a list result around its items: `{"data":[` + items + `],…}`. */
interface Shell {
  readonly head: string;
  readonly tail: string;
  /** resultBytes(head + tail): the shell's share of the whole result, frame included. */
  readonly bytes: number;
}

const HEAD = '{"data":[';

function shellOf(structured: Record<string, unknown>): Shell {
  const json = JSON.stringify({ ...structured, data: [] });
  // The item path joins items into the text: it needs `data` as the first key, as every list result has it.
  if (!json.startsWith(`${HEAD}]`)) throw new TypeError('boundResultSize: a list result must have "data" as its first key');
  return { head: HEAD, tail: json.slice(HEAD.length), bytes: resultBytes(json) };
}

function join(shell: Shell, jsons: readonly string[], keep: number): string {
  return shell.head + (keep === jsons.length ? jsons : jsons.slice(0, keep)).join(',') + shell.tail;
}

/**
 * Keeps a result under `maxBytes`. A list result (`items` is its `data`) is cut to its longest prefix that fits
 * and says so (`truncated: true`, `next_offset` = where to continue). A result that cannot be cut — one object,
 * or a first item alone over the limit — is a RESULT_TOO_LARGE error, never a silently partial answer.
 * Linear in the result size: each item is serialized once, the text is joined from those pieces (it is exactly
 * `JSON.stringify(structured)`), and the cut point comes from the pieces' byte counts, not from serializing
 * candidate results (docs/DESIGN.md §8).
 */
export function boundResultSize(
  structured: Record<string, unknown>,
  items: readonly unknown[] | null,
  cut: CutResult | null,
  maxBytes: number = MAX_RESULT_BYTES,
): BoundedResult {
  assertObject(structured, 'boundResultSize: "structured"');
  if (items !== null && (!Array.isArray(items) || structured['data'] !== items)) {
    throw new TypeError('boundResultSize: "items" must be null or the "data" array of "structured"');
  }
  if (cut !== null && typeof cut !== 'function') throw new TypeError('boundResultSize: "cut" must be a function or null');
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) throw new RangeError('boundResultSize: "maxBytes" must be a positive integer');

  if (items === null) {
    const text = JSON.stringify(structured);
    // A UTF-16 unit is ≤ 3 UTF-8 bytes and escaping at most doubles them: a cheap upper bound first.
    if (text.length * 9 + FRAME_OVERHEAD_BYTES <= maxBytes || resultBytes(text) <= maxBytes) return { structured, text };
    throw new ToolCallError(ToolErrorCode.RESULT_TOO_LARGE);
  }

  const shell = shellOf(structured);
  const n = items.length;
  const jsons = new Array<string>(n);
  let units = shell.head.length + shell.tail.length + n;
  for (let i = 0; i < n; i += 1) {
    // An element JSON cannot express (undefined) is written as null, as JSON.stringify writes it in an array.
    const json = JSON.stringify(items[i]) ?? 'null';
    jsons[i] = json;
    units += json.length;
  }
  if (units * 9 + FRAME_OVERHEAD_BYTES <= maxBytes) return { structured, text: join(shell, jsons, n) };

  // prefix[k]: the first k items in both copies, with the comma (one byte in each copy) before all but the first.
  const prefix = new Array<number>(n + 1);
  prefix[0] = 0;
  for (let i = 0; i < n; i += 1) prefix[i + 1] = (prefix[i] as number) + bothCopiesBytes(jsons[i] as string) + (i === 0 ? 0 : 2);
  if (shell.bytes + (prefix[n] as number) <= maxBytes) return { structured, text: join(shell, jsons, n) };
  if (cut === null || n < 2) throw new ToolCallError(ToolErrorCode.RESULT_TOO_LARGE);

  // The longest prefix (at most n - 1 items) under the budget. The cut result's own shell decides (its count,
  // next_offset and truncated differ from the estimate's by a few digits), so step back while it does not fit.
  const estimate = shellOf(cut(0));
  let keep = 0;
  while (keep < n - 1 && estimate.bytes + (prefix[keep + 1] as number) <= maxBytes) keep += 1;
  for (; keep >= 1; keep -= 1) {
    const candidate = cut(keep);
    const kept = candidate['data'];
    if (!Array.isArray(kept) || kept.length !== keep || kept[keep - 1] !== items[keep - 1]) {
      throw new TypeError('boundResultSize: "cut(keep)" must keep the first keep items');
    }
    const candidateShell = shellOf(candidate);
    if (candidateShell.bytes + (prefix[keep] as number) <= maxBytes) return { structured: candidate, text: join(candidateShell, jsons, keep) };
  }
  throw new ToolCallError(ToolErrorCode.RESULT_TOO_LARGE);
}
