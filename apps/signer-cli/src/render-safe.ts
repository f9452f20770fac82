/**
 * Characters that could change what a terminal shows: every control (Cc), format (Cf — bidi overrides and
 * isolates, zero-width joiners, BOM, soft hyphen, tag characters), surrogate, private-use and unassigned
 * code point, the line/paragraph separators, and non-ASCII spaces (which imitate an ordinary space).
 */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]|[^\P{Zs} ]/u;

function escapeCodePoint(cp: number): string {
  return `\\u{${cp.toString(16).toUpperCase().padStart(4, '0')}}`;
}

/**
 * Text from an artifact (descriptions, names) made safe to print on a terminal: backslash, newline, tab and
 * CR are shown as \\, \n, \t, \r; every character matching UNSAFE as \u{XXXX}. So a hostile description can
 * neither reorder the line (bidi), hide text (zero-width), forge extra lines, nor send escape sequences —
 * and two different strings never render the same.
 */
export function renderSafe(text: string): string {
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (UNSAFE.test(ch)) out += escapeCodePoint(cp);
    else out += ch;
  }
  return out;
}

/** JSON text with every non-ASCII or DEL character as \uXXXX, so machine output is terminal-safe too. */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
