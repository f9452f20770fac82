// The review's line layout for an 80-column terminal: values as styled pieces, wrapped by the review itself.
import { displayWidth } from './display-width.js';
import { safeTokens } from './render-safe.js';

/** The operator's terminal: no line of the review is wider, so the terminal never wraps one. */
export const REVIEW_WIDTH = 80;

export const LABEL_WIDTH = 14;
const VALUE_COLUMN = 2 + LABEL_WIDTH;
const OWN_LINE_INDENT = 4;

/** A piece of a line: renderer text or one token of a value, with the style it is shown in. */
export interface Piece {
  readonly text: string;
  readonly style: (s: string) => string;
}

const plain = (s: string) => s;

export function quoted(value: string, style: (s: string) => string = plain): Piece[] {
  return ['"', ...safeTokens(value), '"'].map((text) => ({ text, style }));
}

export function text(s: string, style: (s: string) => string = plain): Piece[] {
  return [{ text: s, style }];
}

/** Safe-token ids (operation, contract, step) one character per piece, so a long one can wrap. */
export function idPieces(id: string): Piece[] {
  return safeTokens(id).map((t) => ({ text: t, style: plain }));
}

/** Adjacent pieces of one style are styled together (one escape pair per run, not per character). */
function emit(pieces: readonly Piece[]): string {
  let out = '';
  let run = '';
  let style: ((s: string) => string) | null = null;
  for (const p of pieces) {
    if (p.style !== style && style !== null) {
      out += style(run);
      run = '';
    }
    style = p.style;
    run += p.text;
  }
  return style === null ? out : out + style(run);
}

function widthOf(pieces: readonly Piece[]): number {
  return pieces.reduce((w, p) => w + displayWidth(p.text), 0);
}

const SPACE_AT_EDGE = '\\u{0020}';

/**
 * Greedy wrap of pieces into lines of at most `width` columns (a piece is never split). A value's own single
 * space never ends or starts a line as a bare space (invisible at a line end, easy to miss at a start): at a
 * wrap point it moves to the next line as the escape \u{0020}.
 */
function wrap(pieces: readonly Piece[], width: number): Piece[][] {
  const lines: Piece[][] = [[]];
  let used = 0;
  for (const p of pieces) {
    const w = displayWidth(p.text);
    const current = lines[lines.length - 1] as Piece[];
    if (used + w > width && current.length > 0) {
      const last = current[current.length - 1] as Piece;
      const next: Piece[] = [];
      if (last.text === ' ') {
        current.pop();
        next.push({ text: SPACE_AT_EDGE, style: last.style });
      }
      if (p.text === ' ') next.push({ text: SPACE_AT_EDGE, style: p.style });
      else next.push(p);
      lines.push(next);
      used = widthOf(next);
    } else {
      current.push(p);
      used += w;
    }
  }
  return lines;
}

/**
 * Lays the review out for REVIEW_WIDTH columns: `label  value` with values from one column, wrapped there
 * (every line break is the renderer's, never the terminal's — values carry no newline and no run of spaces,
 * and their quotes are escaped, so no value can draw a line that looks like one of the review's own).
 */
export class Lines {
  readonly #out: string[] = [];

  raw(line: string): void {
    this.#out.push(line);
  }

  field(label: string, pieces: readonly Piece[]): void {
    const head = `  ${label.padEnd(LABEL_WIDTH)}`;
    const rows = wrap(pieces, REVIEW_WIDTH - VALUE_COLUMN);
    rows.forEach((row, i) => this.#out.push(`${i === 0 ? head : ' '.repeat(VALUE_COLUMN)}${emit(row)}`));
  }

  /**
   * Like field, but never more than `maxRows` rows: a longer value is cut at a piece boundary and ends with
   * `marker` (renderer text, so the cut is visible and cannot be mistaken for the value: a value's own quote is
   * always escaped). The default review keeps every value short this way, so the approve line, the alias and
   * old → new stay on one screen; --full shows them whole.
   */
  fieldCut(label: string, pieces: readonly Piece[], maxRows: number, marker: readonly Piece[]): void {
    const width = REVIEW_WIDTH - VALUE_COLUMN;
    if (wrap(pieces, width).length <= maxRows) {
      this.field(label, pieces);
      return;
    }
    // The longest prefix that fits with the marker (wrapping is monotone in the prefix length).
    let lo = 0;
    let hi = pieces.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (wrap([...pieces.slice(0, mid), ...marker], width).length <= maxRows) lo = mid;
      else hi = mid - 1;
    }
    this.field(label, [...pieces.slice(0, lo), ...marker]);
  }

  /** A value on the label's line when it fits there, else on its own line(s) below the label. */
  fieldOrOwnLine(label: string, pieces: readonly Piece[], indent = OWN_LINE_INDENT): void {
    if (widthOf(pieces) <= REVIEW_WIDTH - VALUE_COLUMN) {
      this.field(label, pieces);
      return;
    }
    this.#out.push(`  ${label}`);
    for (const row of wrap(pieces, REVIEW_WIDTH - indent)) this.#out.push(`${' '.repeat(indent)}${emit(row)}`);
  }

  /**
   * Renderer prose (holding no request value the caller did not escape), word-wrapped at REVIEW_WIDTH: from
   * column 3, continued from column 5.
   */
  prose(sentence: string): void {
    const rows: string[] = [];
    let line = '';
    for (const word of sentence.split(' ')) {
      const indent = rows.length === 0 ? 2 : OWN_LINE_INDENT;
      if (line !== '' && indent + displayWidth(line) + 1 + displayWidth(word) > REVIEW_WIDTH) {
        rows.push(`${' '.repeat(indent)}${line}`);
        line = word;
      } else {
        line = line === '' ? word : `${line} ${word}`;
      }
    }
    if (line !== '') rows.push(`${' '.repeat(rows.length === 0 ? 2 : OWN_LINE_INDENT)}${line}`);
    this.#out.push(...rows);
  }

  toString(): string {
    return `${this.#out.join('\n')}\n`;
  }
}

/** A quoted value (e.g. a file path) as lines of at most REVIEW_WIDTH columns, each indented by `indent`. */
export function wrappedQuoted(value: string, indent: number): string {
  return wrap(quoted(value), REVIEW_WIDTH - indent)
    .map((row) => `${' '.repeat(indent)}${emit(row)}`)
    .join('\n');
}
