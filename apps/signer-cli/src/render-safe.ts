import { TERMINAL_UNSAFE_CHARACTER, escapedCodePoint } from '@pfsense-mcp/foundation';

/**
 * Characters that could change what a terminal shows, or show nothing at all (foundation's one definition):
 * every control, format (bidi overrides and isolates, zero-width joiners, BOM, soft hyphen, tag characters),
 * surrogate, private-use and unassigned code point, the line/paragraph separators, every default-ignorable code
 * point (U+034F, variation selectors such as U+FE0F, Hangul fillers such as U+3164) and non-ASCII spaces.
 */
const UNSAFE = TERMINAL_UNSAFE_CHARACTER;

/** Visible-as-blank characters that no Unicode property above catches (U+2800 BRAILLE PATTERN BLANK). */
const BLANK_LOOKING: ReadonlySet<number> = new Set([0x2800]);

const MARK = /^\p{M}$/u;
/** A base character that may carry one combining mark shown as itself (letters and digits only). */
const MARK_BASE = /^[\p{L}\p{N}]$/u;

const escapeCodePoint = escapedCodePoint;

const SPACE_ESCAPE = escapeCodePoint(0x20);

/**
 * Text from an artifact (descriptions, names, members) as the tokens a terminal can show safely, each token
 * one visible unit (a character, a base character with its one combining mark, or an escape):
 * - backslash, newline, tab, CR and the double quote are shown as \\, \n, \t, \r, \";
 * - every UNSAFE or BLANK_LOOKING character as \u{XXXX};
 * - a combining mark is shown as itself only as the first mark on a letter or digit; any further mark
 *   (stacks, marks on spaces, quotes or escapes, a mark at the start) as \u{XXXX};
 * - a single space as itself, every space of a run of two or more as \u{0020} (a run of spaces could
 *   otherwise push text to where the terminal wraps it onto a line that looks like the review's own).
 * So a hostile value can neither reorder the line (bidi), hide or imitate text (invisible characters, mark
 * stacks), close its quotes, forge lines, nor send escape sequences — and two different strings never
 * render the same (every escape starts with a backslash, and a backslash is always escaped).
 */
export function safeTokens(text: string): readonly string[] {
  const chars = [...text];
  const out: string[] = [];
  // Whether the last token is a raw letter or digit that has no mark yet.
  let canTakeMark = false;
  chars.forEach((ch, i) => {
    const cp = ch.codePointAt(0) ?? 0;
    let token: string;
    let base = false;
    if (cp > 0x20 && cp < 0x7f && ch !== '\\' && ch !== '"') {
      // Printable ASCII other than space, backslash and quote: as itself (the common case, kept fast).
      out.push(ch);
      canTakeMark = (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a);
      return;
    }
    if (ch === '\\') token = '\\\\';
    else if (ch === '"') token = '\\"';
    else if (ch === '\n') token = '\\n';
    else if (ch === '\t') token = '\\t';
    else if (ch === '\r') token = '\\r';
    else if (ch === ' ') token = chars[i - 1] === ' ' || chars[i + 1] === ' ' ? SPACE_ESCAPE : ' ';
    else if (UNSAFE.test(ch) || BLANK_LOOKING.has(cp)) token = escapeCodePoint(cp);
    else if (MARK.test(ch)) {
      if (canTakeMark) {
        out[out.length - 1] += ch;
        canTakeMark = false;
        return;
      }
      token = escapeCodePoint(cp);
    } else {
      token = ch;
      base = MARK_BASE.test(ch);
    }
    out.push(token);
    canTakeMark = base;
  });
  return out;
}

/** safeTokens joined: the one rendering of an artifact string on a terminal. */
export function renderSafe(text: string): string {
  return safeTokens(text).join('');
}

/** JSON text with every non-ASCII or DEL character as \uXXXX, so machine output is terminal-safe too. */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
