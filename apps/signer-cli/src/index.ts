// Public API of signer-cli (for its tests; the program is main.ts): explicit named exports only.
export type { AliasDescriptionReview } from './alias-request-review.js';
export type { AliasEntriesRequestReview, EntryChangeReview } from './alias-entries-request-review.js';
export { isAliasEntriesRequestReview, reviewPendingRequest } from './pending-request-review.js';
export type { RequestReview } from './pending-request-review.js';
export type { RequestType } from './request-review-base.js';
export { isApproved } from './approval.js';
export { roleForRequest } from './role-key-file.js';
export type { AnsweredRequest } from './role-key-file.js';
export { ExitCode } from './exit-code.js';
export { HELP_TEXT } from './help-text.js';
export { asciiJson, renderSafe } from './render-safe.js';
export { runCli } from './run-cli.js';
export type { CliIo } from './run-cli.js';
export { SignerError } from './signer-error.js';
