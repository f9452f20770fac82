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
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

function shellOf(structured: Record<string, unknown>): Shell {
  const json = JSON.stringify({ ...structured, data: [] });
  // The item path cuts the text between items: it needs `data` as the first key, as every list result has it.
  if (!json.startsWith(`${HEAD}]`)) throw new TypeError('boundResultSize: a list result must have "data" as its first key');
  return { head: HEAD, tail: json.slice(HEAD.length), bytes: resultBytes(json) };
}

/** Where each item of the `data` array ends in `text`, and what it adds to the result in both copies. */
interface ItemSpans {
  /** ends[i]: the index in `text` just after item i. */
  readonly ends: number[];
  /** bytes[i]: item i in both copies (bothCopiesBytes of its JSON). */
  readonly bytes: number[];
}

/**
 * Walks the items of `{"data":[…],…}` in the JSON text `text` once, from the `[`, and measures each: its UTF-8
 * bytes (twice: structuredContent and the text block) plus what escaping it again adds (one byte per `"` and `\`).
 * JSON.stringify output is well formed — no raw control character, no lone surrogate, `"` inside a string
 * only as `\"` — so depth counting outside strings finds the items, and a UTF-16 unit is 1, 2 or 3 UTF-8 bytes
 * (a surrogate pair 4 together). One pass over the text instead of one JSON.stringify per item
 * (docs/DESIGN.md §8).
 */
function itemSpans(text: string, n: number): ItemSpans {
  return Buffer.byteLength(text) === text.length && !text.includes('\\') ? plainItemSpans(text, n) : walkedItemSpans(text, n);
}

/**
 * itemSpans for text that is all ASCII and holds no backslash — the usual READ page. Then a string is the run up
 * to the next `"`, found natively rather than walked, every character is one UTF-8 byte, and escaping again adds
 * exactly one byte per `"`.
 */
function plainItemSpans(text: string, n: number): ItemSpans {
  const ends = new Array<number>(n);
  const bytes = new Array<number>(n);
  let i = HEAD.length;
  for (let item = 0; item < n; item += 1) {
    const start = i;
    let depth = 0;
    let quotes = 0;
    for (; ; i += 1) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        const close = text.indexOf('"', i + 1);
        if (close < 0) throw new TypeError("boundResultSize: the result's JSON ended inside an item");
        quotes += 2;
        i = close;
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth += 1;
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        if (depth === 0) break;
        depth -= 1;
      } else if ((c === COMMA && depth === 0) || Number.isNaN(c)) break;
    }
    if (i >= text.length) throw new TypeError("boundResultSize: the result's JSON ended inside an item");
    ends[item] = i;
    bytes[item] = 2 * (i - start) + quotes;
    i += 1;
  }
  return { ends, bytes };
}

/** itemSpans for any JSON.stringify output, character by character. */
function walkedItemSpans(text: string, n: number): ItemSpans {
  const ends = new Array<number>(n);
  const bytes = new Array<number>(n);
  let i = HEAD.length;
  for (let item = 0; item < n; item += 1) {
    let depth = 0;
    let inString = false;
    let utf8 = 0;
    let extra = 0;
    for (; ; i += 1) {
      const c = text.charCodeAt(i);
      if (inString) {
        if (c === BACKSLASH) {
          // An escape is `\` and one ASCII character (or `u` and four hex digits, walked as plain characters).
          const next = text.charCodeAt(i + 1);
          utf8 += 2;
          extra += next === QUOTE || next === BACKSLASH ? 2 : 1;
          i += 1;
          continue;
        }
        if (c === QUOTE) {
          inString = false;
          utf8 += 1;
          extra += 1;
        } else utf8 += c < 0x80 ? 1 : c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 2 : 3;
        continue;
      }
      if (c === QUOTE) {
        inString = true;
        extra += 1;
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth += 1;
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        if (depth === 0) break;
        depth -= 1;
      } else if (c === COMMA && depth === 0) break;
      else if (Number.isNaN(c)) throw new TypeError("boundResultSize: the result's JSON ended inside an item");
      utf8 += 1;
    }
    ends[item] = i;
    bytes[item] = utf8 + utf8 + extra;
    i += 1;
  }
  return { ends, bytes };
}

/**
 * Keeps a result under `maxBytes`. A list result (`items` is its `data`) is cut to its longest prefix that fits
 * and says so (`truncated: true`, `next_offset` = where to continue). A result that cannot be cut — one object,
 * or a first item alone over the limit — is a RESULT_TOO_LARGE error, never a silently partial answer.
 * Linear in the result size: the result is serialized once, a list over the cheap bound is measured item by item
 * in one pass over that text, and the cut result's text is a slice of it (exactly `JSON.stringify(structured)`),
 * never a re-serialization of candidates (docs/DESIGN.md §8).
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

  const text = JSON.stringify(structured);
  if (items === null) {
    // A UTF-16 unit is ≤ 3 UTF-8 bytes and escaping at most doubles them: a cheap upper bound first.
    if (text.length * 9 + FRAME_OVERHEAD_BYTES <= maxBytes || resultBytes(text) <= maxBytes) return { structured, text };
    throw new ToolCallError(ToolErrorCode.RESULT_TOO_LARGE);
  }
  if (!text.startsWith(HEAD)) throw new TypeError('boundResultSize: a list result must have "data" as its first key');
  if (text.length * 9 + FRAME_OVERHEAD_BYTES <= maxBytes) return { structured, text };

  const n = items.length;
  const spans = itemSpans(text, n);
  const shell = shellOf(structured);
  // prefix[k]: the first k items in both copies, with the comma (one byte in each copy) before all but the first.
  const prefix = new Array<number>(n + 1);
  prefix[0] = 0;
  for (let i = 0; i < n; i += 1) prefix[i + 1] = (prefix[i] as number) + (spans.bytes[i] as number) + (i === 0 ? 0 : 2);
  if (shell.bytes + (prefix[n] as number) <= maxBytes) return { structured, text };
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
    if (candidateShell.bytes + (prefix[keep] as number) <= maxBytes) {
      return { structured: candidate, text: candidateShell.head + text.slice(HEAD.length, spans.ends[keep - 1]) + candidateShell.tail };
    }
  }
  throw new ToolCallError(ToolErrorCode.RESULT_TOO_LARGE);
}
