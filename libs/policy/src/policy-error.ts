import type { PolicyRefusalError } from './policy-refusal-error.js';
import type { RateStateError } from './rate-window-state.js';

/**
 * Every error this lib throws to its callers, as one union discriminated by `name` (each member extends
 * foundation's CodedError and narrows `code` to its own closed set; docs/DESIGN.md §2).
 */
export type PolicyError = PolicyRefusalError | RateStateError;
