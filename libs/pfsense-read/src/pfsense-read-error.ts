import type { PfrestResponseError } from './pfrest-response-error.js';
import type { ReadScanLimitError } from './read-scan-limit-error.js';
import type { ReadToolInputError } from './read-tool-input-error.js';

/**
 * Every error this lib throws to its callers, as one union discriminated by `name` (each member extends
 * foundation's CodedError and narrows `code` to its own closed set; docs/DESIGN.md §2).
 */
export type PfsenseReadError = PfrestResponseError | ReadScanLimitError | ReadToolInputError;
