/** A JSON-RPC request id as the MCP schema accepts it: a string or an integer. */
export type RequestId = string | number;

const WHITESPACE = /[ \t\r\n]*/y;
// Unescaped controls are not allowed in a JSON string; C1 controls are (but rare): a prefix with one yields no id.
const STRING = /"(?:[^"\\\p{Cc}]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/uy;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const LITERAL = /true|false|null/y;

/**
 * Reads the top-level `"id"` member from the start of a JSON object that is too long to parse whole (an oversized
 * frame): a small scanner that walks the object's members in order, skipping nested values, and gives up (null) at
 * anything it cannot be sure of — the prefix ending inside a value, a malformed token, an id that is neither a
 * string nor an integer. Never guesses: a nested `"id"` (inside `params`) is not the request's id.
 */
export function readLeadingId(prefix: string): RequestId | null {
  if (typeof prefix !== 'string') throw new TypeError('readLeadingId: "prefix" must be a string');
  let at = skip(prefix, 0);
  if (prefix[at] !== '{') return null;
  at += 1;
  for (;;) {
    at = skip(prefix, at);
    const key = match(STRING, prefix, at);
    if (key === null) return null;
    at = skip(prefix, at + key.length);
    if (prefix[at] !== ':') return null;
    at = skip(prefix, at + 1);
    if ((JSON.parse(key) as string) === 'id') return idAt(prefix, at);
    const end = skipValue(prefix, at);
    if (end === null) return null;
    at = skip(prefix, end);
    if (prefix[at] !== ',') return null;
    at += 1;
  }
}

function idAt(text: string, at: number): RequestId | null {
  const token = match(STRING, text, at) ?? match(NUMBER, text, at);
  if (token === null) return null;
  // The token must be complete: followed by a member separator, not cut off by the end of the prefix.
  const next = text[skip(text, at + token.length)];
  if (next !== ',' && next !== '}') return null;
  const value = JSON.parse(token) as string | number;
  return typeof value === 'string' || Number.isSafeInteger(value) ? value : null;
}

/** The index just past the JSON value starting at `at`, or null when it is malformed or runs past the prefix. */
function skipValue(text: string, at: number): number | null {
  const scalar = match(STRING, text, at) ?? match(NUMBER, text, at) ?? match(LITERAL, text, at);
  if (scalar !== null) return at + scalar.length;
  if (text[at] !== '{' && text[at] !== '[') return null;
  let depth = 0;
  let i = at;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"') {
      const string = match(STRING, text, i);
      if (string === null) return null;
      i += string.length;
      continue;
    }
    if (ch === '{' || ch === '[') depth += 1;
    else if (ch === '}' || ch === ']') {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
    i += 1;
  }
  return null;
}

function skip(text: string, at: number): number {
  WHITESPACE.lastIndex = at;
  WHITESPACE.test(text);
  return WHITESPACE.lastIndex;
}

function match(pattern: RegExp, text: string, at: number): string | null {
  pattern.lastIndex = at;
  const found = pattern.exec(text);
  return found === null ? null : found[0];
}
