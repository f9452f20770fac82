import type { ArtifactFormatError } from './artifact-format-error.js';
import type { ArtifactVerificationError } from './artifact-verification-error.js';

/**
 * Every error this lib throws to its callers, as one union discriminated by `name` (each member extends
 * foundation's CodedError and narrows `code` to its own closed set; docs/DESIGN.md §2).
 */
export type AuthorizationError = ArtifactFormatError | ArtifactVerificationError;
