// Public API of repo-checks: the helpers its whole-repository tests use.
export { findRootEscapes } from './find-root-escapes.js';
export type { RootEscape, RootEscapeRule } from './find-root-escapes.js';
export { findOutsideCitations } from './find-outside-citations.js';
export type { OutsideCitation, OutsideCitationRule } from './find-outside-citations.js';
export { listRepositoryFiles, NOT_IN_A_CLONE } from './list-repository-files.js';
export { copyToLoneDirectory } from './copy-to-lone-directory.js';
export type { LoneCopy } from './copy-to-lone-directory.js';
export { MAX_SOURCE_LINES, findOversizedSource, generatorOf, isCoveredSource, lineCount } from './find-oversized-source.js';
export type { OversizedSource } from './find-oversized-source.js';
export { checkMarkdown, headingSlug, markdownAnchors } from './check-markdown.js';
export type { MarkdownProblem, MarkdownWorld } from './check-markdown.js';
export { UNCODED_ERROR_EXEMPTIONS, findUncodedErrors } from './find-uncoded-errors.js';
export type { UncodedError } from './find-uncoded-errors.js';
