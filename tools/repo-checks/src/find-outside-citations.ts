// A static scan for citations of documents a maintainer of this repository does not have: issue numbers, design
// notes and decision records that were never part of it, the data file pfrest's conventions came from before
// they were vendored, the product this one replaced. The design lives in `docs/DESIGN.md` and is cited as
// `docs/DESIGN.md §N`; public specs (RFCs, the MCP specification, pfrest's documentation) are cited by name.
// Like the escape scan, it is a guard against the forms such citations really take, not a parser of prose.

export type OutsideCitationRule =
  | 'issue-number'
  | 'architecture-document'
  | 'decision-record'
  | 'seed-document'
  | 'predecessor'
  | 'unvendored-endpoints-json'
  | 'reference-spec'
  | 'short-design-citation';

export interface OutsideCitation {
  readonly file: string;
  readonly line: number;
  readonly rule: OutsideCitationRule;
  readonly excerpt: string;
}

const RULES: readonly (readonly [OutsideCitationRule, RegExp])[] = Object.freeze([
  // "issue 4", "issues 6 and 7", "issue #12", "(issue: …)", "the order": a tracker this repository lacks.
  ['issue-number', /\b[Ii]ssues?\s*#?\d+|\(issue[:)]|\bthe issue's\b/u],
  ['architecture-document', /\bARCHITECTURE\b/u],
  // "ADR-026", "ADR 15", "the ADRs".
  ['decision-record', /\bADRs?\b/u],
  // The design notes of the first sessions: 'seed "Audit flow"', "seed §3", "the seeds", "seeds/…" — not the
  // simulator's `--seed "…"` or a key's seed.
  ['seed-document', /\bthe seeds\b|(?<![\w-])seeds?\s+(?:"[A-Z]|“|§|docs?\b)|\bseeds\//u],
  // The product this one replaced; an audit row's "its predecessor" is a different thing and stays legal.
  ['predecessor', /\bthe predecessor\b/u],
  // pfrest's conventions file was never vendored (`vendor/pfrest/tool-endpoints.json` is, and is fine).
  ['unvendored-endpoints-json', /(?<![\w-])endpoints\.json/u],
  // Reference specs that were never vendored: "specs/…", snake_case notes ("sealed_executor.md"), "spec G4".
  ['reference-spec', /\bspecs\/|\b[a-z]+(?:_[a-z]+)+\.md\b|\bspec [A-Z]\d+\b/u],
  // "DESIGN §7" without the path: write "docs/DESIGN.md §7" so the design-doc test can check the section.
  ['short-design-citation', /(?<![\w/.-])DESIGN(?:\.md)? §/u],
]);

/**
 * The outside citations in one file, one per rule and line. `file` is the path relative to the workspace root
 * (posix separators), `text` its content.
 */
export function findOutsideCitations(file: string, text: string): readonly OutsideCitation[] {
  if (typeof file !== 'string' || file.length === 0 || file.startsWith('/') || file.split('/').includes('..')) {
    throw new TypeError('findOutsideCitations: file must be a non-empty path relative to the workspace root');
  }
  if (typeof text !== 'string') throw new TypeError('findOutsideCitations: text must be a string');
  const found: OutsideCitation[] = [];
  for (const [i, line] of text.split('\n').entries()) {
    for (const [rule, pattern] of RULES) {
      if (pattern.test(line)) found.push({ file, line: i + 1, rule, excerpt: line.trim().slice(0, 160) });
    }
  }
  return Object.freeze(found);
}
