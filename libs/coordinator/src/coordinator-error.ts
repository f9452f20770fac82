import type { ApplianceIdentityError } from './read-appliance-binding.js';
import type { ArtifactFileError } from './artifact-file-error.js';
import type { CoordinatorInputError } from './coordinator-input-error.js';
import type { CoordinatorRefusalError } from './coordinator-refusal-error.js';

/**
 * Every error this lib throws to its callers, as one union discriminated by `name` (each member extends
 * foundation's CodedError and narrows `code` to its own closed set; docs/DESIGN.md §2).
 */
export type CoordinatorError = ApplianceIdentityError | ArtifactFileError | CoordinatorInputError | CoordinatorRefusalError;
