import type { CanonicalError } from './canonical-error.js';
import type { ValidationError } from './validation-error.js';

/**
 * Every error this lib throws to its callers, as one union discriminated by `name` (each member extends
 * foundation's CodedError and narrows `code` to its own closed set; docs/DESIGN.md §2).
 */
export type CanonicalLibError = CanonicalError | ValidationError;
