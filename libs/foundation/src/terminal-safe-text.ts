/**
 * Every character that can change what a terminal shows, or shows as nothing: controls (Cc — ESC, BEL, CR, C1 …),
 * format characters (Cf — bidi overrides and isolates, zero-width joiners, BOM, soft hyphen, tag characters),
 * surrogates, private-use and unassigned code points, the line and paragraph separators, every default-ignorable
 * code point (variation selectors, Hangul fillers) and every non-ASCII space (it imitates an ordinary one).
 * The one definition: the signer's review, the MCP error details and every line the programs print take it here.
 */
export const TERMINAL_UNSAFE_CHARACTER = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]|[^\P{Zs} ]/u;

const ALL_UNSAFE = new RegExp(TERMINAL_UNSAFE_CHARACTER.source, 'gu');

/** `\u{XXXX}`: how an unsafe code point is shown (at least four upper-case hex digits). */
export function escapedCodePoint(cp: number): string {
  return `\\u{${cp.toString(16).toUpperCase().padStart(4, '0')}}`;
}

/** `\uXXXX` for each UTF-16 unit: a JSON string escape, so a JSON line stays valid JSON with the same meaning. */
function jsonEscaped(ch: string): string {
  let out = '';
  for (let i = 0; i < ch.length; i += 1) out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

export interface TerminalSafeOptions {
  /** Keep the line feed (the printer's own line breaks); false for a name or path that must stay on one line. */
  readonly keepLineFeeds?: boolean;
  /**
   * `json` (default): `\uXXXX` per UTF-16 unit — JSON's own escape (such characters can only sit inside a JSON
   * string), so a JSON answer passed through means the same. `code-point`: `\u{XXXX}`, the signer's notation.
   */
  readonly notation?: 'json' | 'code-point';
}

/**
 * Text a program prints to a terminal, every TERMINAL_UNSAFE_CHARACTER escaped. So a planted file name, an unknown
 * option or a path echoed back can neither send an escape sequence (window title, clear screen, colours), return
 * the cursor to overwrite a line, nor reorder or hide text.
 */
export function terminalSafeText(text: string, options: TerminalSafeOptions = {}): string {
  const keep = options.keepLineFeeds ?? true;
  const escape = options.notation === 'code-point' ? (ch: string) => escapedCodePoint(ch.codePointAt(0) ?? 0) : jsonEscaped;
  return text.replace(ALL_UNSAFE, (ch) => (ch === '\n' && keep ? ch : escape(ch)));
}
