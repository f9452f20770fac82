// Look-alikes in the review (docs/DESIGN.md §6, README "Review layout"): what renderSafe shows as itself may still
// imitate ASCII — a Cyrillic е in "Sеrvers" reads as "Servers" — and right-to-left letters may reorder what is
// around them on a bidi-aware terminal. Unicode TS #39's skeletons need the confusables table; this signer is
// strict instead: every non-ASCII character it shows raw is marked, with its script, and listed by code point under
// --full; a value mixing scripts says so; right-to-left letters are isolated one by one; and when old and new differ
// only where non-ASCII characters are, the review says in words that they may look the same.
import { TERMINAL_UNSAFE_CHARACTER } from '@pfsense-mcp/foundation';

/** The scripts named in a marker; any other letter is `other script`. Common and Inherited are no script of their own. */
const SCRIPTS: readonly (readonly [string, RegExp])[] = [
  'Latin',
  'Greek',
  'Cyrillic',
  'Armenian',
  'Hebrew',
  'Arabic',
  'Syriac',
  'Thaana',
  'Devanagari',
  'Bengali',
  'Thai',
  'Georgian',
  'Hangul',
  'Hiragana',
  'Katakana',
  'Han',
  'Cherokee',
  'Ethiopic',
  'Canadian_Aboriginal',
  'Tifinagh',
  'Lisu',
  'Vai',
  'Coptic',
].map((name) => [name.replace('_', ' '), new RegExp(`^\\p{Script=${name}}$`, 'u')] as const);

const LETTER_OR_NUMBER = /^[\p{L}\p{N}]$/u;
const MARK = /\p{M}/gu;

/**
 * Strong right-to-left characters (bidi classes R and AL): the Hebrew, Arabic, Syriac, Thaana, NKo, Samaritan and
 * Mandaic blocks, their presentation forms, and the right-to-left ranges of the supplementary planes.
 */
const RIGHT_TO_LEFT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefe\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;

/** LEFT-TO-RIGHT ISOLATE … POP DIRECTIONAL ISOLATE (Unicode UAX #9): the text inside cannot reorder what is outside. */
const LRI = '\u2066';
const PDI = '\u2069';

export function scriptOf(ch: string): string | null {
  for (const [name, pattern] of SCRIPTS) if (pattern.test(ch)) return name;
  return LETTER_OR_NUMBER.test(ch) ? 'other script' : null;
}

/** One non-ASCII character a review shows as itself (escaped ones need no marker: they are visibly escapes). */
export interface ShownNonAscii {
  /** 1-based position among the value's code points. */
  readonly position: number;
  readonly codePoint: string;
  readonly script: string | null;
}

/** What the review marks about one value; null when it shows only ASCII. */
export interface LookAlike {
  readonly nonAscii: readonly ShownNonAscii[];
  /** The scripts of its letters and digits (ASCII ones are Latin), sorted; more than one means mixed. */
  readonly scripts: readonly string[];
  readonly mixedScripts: boolean;
  readonly rightToLeft: boolean;
}

function codePointLabel(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

export function lookAlikeOf(value: string): LookAlike | null {
  const nonAscii: ShownNonAscii[] = [];
  const scripts = new Set<string>();
  let position = 0;
  for (const ch of value) {
    position += 1;
    const cp = ch.codePointAt(0) ?? 0;
    const script = cp < 0x80 ? (LETTER_OR_NUMBER.test(ch) && /[A-Za-z]/.test(ch) ? 'Latin' : null) : scriptOf(ch);
    if (script !== null) scripts.add(script);
    if (cp >= 0x80 && !TERMINAL_UNSAFE_CHARACTER.test(ch))
      nonAscii.push(Object.freeze({ position, codePoint: codePointLabel(cp), script }));
  }
  if (nonAscii.length === 0) return null;
  const sorted = [...scripts].sort();
  return Object.freeze({
    nonAscii: Object.freeze(nonAscii),
    scripts: Object.freeze(sorted),
    mixedScripts: sorted.length > 1,
    rightToLeft: RIGHT_TO_LEFT.test(value),
  });
}

/** Marks and compatibility forms away (NFKD, no combining marks): "Ｓｅｒｖｅｒｓ" and "Sérvers" fold to "Servers". */
function folded(value: string): string[] {
  return [...value.normalize('NFKD').replace(MARK, '')];
}

/**
 * Old and new differ, yet may look the same: after folding, of the same length and equal wherever both are ASCII —
 * they differ only where a non-ASCII character stands (Cyrillic е for e, a fullwidth letter, an accent).
 */
export function mayLookTheSame(a: string, b: string): boolean {
  if (a === b) return false;
  const x = folded(a);
  const y = folded(b);
  if (x.length !== y.length) return false;
  return x.every((c, i) => c === y[i] || c.charCodeAt(0) >= 0x80 || (y[i] ?? '').charCodeAt(0) >= 0x80);
}

/** Tokens of a value (safeTokens) with each right-to-left one isolated, so the line keeps its left-to-right order. */
export function isolateRightToLeft(tokens: readonly string[]): string[] {
  return tokens.map((t) => (RIGHT_TO_LEFT.test(t) ? `${LRI}${t}${PDI}` : t));
}

/** Code points listed under --full for one value; the rest are counted. */
const LISTED_MAX = 64;

/** The review's prose about one value (`what`: "the new description"); none for a value of ASCII only. */
export function lookAlikeNotes(what: string, value: string, full: boolean): string[] {
  const l = lookAlikeOf(value);
  if (l === null) return [];
  const n = l.nonAscii.length;
  const scripts = [...new Set(l.nonAscii.map((c) => c.script ?? 'no script'))].sort().join(', ');
  const mixed = l.mixedScripts ? `, mixing scripts ${l.scripts.join(' + ')}` : '';
  const notes = [`! non-ASCII in ${what}: ${n} character${n === 1 ? '' : 's'} (${scripts})${mixed}${full ? '' : '; --full lists them'}`];
  if (full) {
    const listed = l.nonAscii.slice(0, LISTED_MAX).map((c) => `${c.codePoint} at ${c.position}`);
    notes.push(`  ${listed.join(', ')}${n > LISTED_MAX ? `, and ${n - LISTED_MAX} more` : ''}`);
  }
  if (l.rightToLeft) notes.push(`! right-to-left letters in ${what}: each shown isolated, in stored order`);
  return notes;
}

/** One value a review shows, by the words its note uses for it ("the new description"). */
export interface NamedValue {
  readonly what: string;
  readonly value: string;
}

/** The notes of values in the order the review shows them (none for values of ASCII only). */
export function namedValueNotes(values: readonly NamedValue[], full: boolean): string[] {
  return values.flatMap((v) => lookAlikeNotes(v.what, v.value, full));
}

/** The appliance's values as every review names them (none when the request names no appliance). */
export function applianceValues(appliance: { readonly baseUrl: string; readonly applianceId: string } | null): NamedValue[] {
  if (appliance === null) return [];
  return [
    { what: 'the appliance URL', value: appliance.baseUrl },
    { what: 'the appliance id', value: appliance.applianceId },
  ];
}

/** What a description review shows, by the words its notes use for each value. */
export interface ReviewedValues {
  readonly oldDescription: string;
  readonly newDescription: string;
  readonly observedDescription: string | null;
  readonly aliasType: string;
  readonly members: readonly { readonly address: string; readonly detail: string }[];
  readonly appliance: { readonly baseUrl: string; readonly applianceId: string } | null;
}

/**
 * Every note of one review, in the order the values are shown: the review calls this once, under old → new, so a
 * look-alike anywhere (a description, a member, the appliance) is said in words before the approve line.
 */
export function reviewLookAlikeNotes(v: ReviewedValues, full: boolean): string[] {
  const notes = namedValueNotes(
    [
      ...applianceValues(v.appliance),
      { what: 'the alias type', value: v.aliasType },
      ...v.members.flatMap((m, i) => [
        { what: `member #${i + 1}`, value: m.address },
        { what: `member #${i + 1}'s detail`, value: m.detail },
      ]),
      { what: 'the current description', value: v.oldDescription },
      { what: 'the new description', value: v.newDescription },
    ],
    full,
  );
  if (mayLookTheSame(v.oldDescription, v.newDescription)) {
    notes.push('! the current and the new description may look the same: they differ only where non-ASCII characters stand');
  }
  if (v.observedDescription !== null) notes.push(...lookAlikeNotes('the observed description', v.observedDescription, full));
  return notes;
}
