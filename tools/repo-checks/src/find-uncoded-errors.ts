// The one error shape (docs/DESIGN.md §2): every error class of the product's sources extends foundation's
// `CodedError` — directly or through its lib's own base — so each carries a stable `code`. A class declared
// `extends Error` is the finding. Exempt, by path: the simulator's `ApiError` (it models pfrest's JSON error, whose
// code is an HTTP status) and the test-only mock transport's error (test-support may not import foundation).

/** The sources the rule reads: the products' own code, not their tests. */
const COVERED = /^(?:libs\/[^/]+\/src|apps\/[^/]+\/src|tools\/pfsense-sim\/src)\/.+\.ts$/u;

/** Files allowed to declare a plain `extends Error`, each for the reason above. */
export const UNCODED_ERROR_EXEMPTIONS: readonly string[] = Object.freeze(['tools/pfsense-sim/src/api-error.ts']);

const PLAIN_ERROR_CLASS = /\bclass\s+([A-Za-z_$][\w$]*)\s+extends\s+Error\b/gu;

export interface UncodedError {
  readonly file: string;
  readonly className: string;
}

/** The error classes of `text` (the file at `file`) that extend Error itself instead of CodedError. */
export function findUncodedErrors(file: string, text: string): readonly UncodedError[] {
  if (typeof file !== 'string' || typeof text !== 'string') throw new TypeError('findUncodedErrors: file and text must be strings');
  if (!COVERED.test(file) || UNCODED_ERROR_EXEMPTIONS.includes(file)) return [];
  return [...text.matchAll(PLAIN_ERROR_CLASS)].map((m) => Object.freeze({ file, className: m[1] as string }));
}
