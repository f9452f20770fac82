// Public API of policy: explicit named exports only.
export { Capability } from './capability.js';
export { CAPABILITIES, isCapability } from './is-capability.js';
export { READ_CAPABILITIES, WRITE_CAPABILITIES } from './read-capabilities.js';
export { SUPPORTED_CAPABILITIES_THIS_BUILD, isImplemented } from './is-implemented.js';
export { Profile, PROFILES, isProfile, parseProfile } from './profile.js';
export { PROFILE_GRANTS, isGranted } from './is-granted.js';
export { isRuntimeEnabled } from './is-runtime-enabled.js';
export type { RuntimeFacts } from './is-runtime-enabled.js';
export { HTTP_METHODS, MUTATING_HTTP_METHODS, isHttpMethod } from '@pfsense-mcp/foundation';
export type { HttpMethod } from '@pfsense-mcp/foundation';
export { PolicyRefusalError } from './policy-refusal-error.js';
export { MutationPolicy, isEndpointSymbol } from './mutation-policy.js';
export type { MutationPolicyEntry } from './mutation-policy.js';
export { ALIAS_WRITE_POLICY, ALIAS_WRITE_POLICY_ENTRY } from './alias-write-policy.js';
export { ALIAS_ENTRIES_WRITE_POLICY_ENTRY } from './alias-entries-write-policy.js';
export { needsSignedRollback } from './needs-signed-rollback.js';
export { DEFAULT_RATE_LIMITS, assertRateLimits, rateLimitsFrom } from './rate-limits.js';
export { targetCooldownMsOf } from './target-cooldown.js';
export type { RateLimits } from './rate-limits.js';
export {
  EMPTY_RATE_WINDOW_STATE,
  MAX_RATE_STATE_ENTRIES,
  RateStateError,
  isRateWindowState,
  isTargetDigest,
  parseRateWindowState,
} from './rate-window-state.js';
export type { RateWindowState } from './rate-window-state.js';
export { RateRefusalReason } from './rate-decision.js';
export type { RateDecision } from './rate-decision.js';
export { decideRateLimit, isReconciliationLockoutActive, RATE_STATE_ADMISSION_CAP } from './decide-rate-limit.js';
export type { PrepareCounts, RateLimitInput } from './decide-rate-limit.js';
export { decideInFlight } from './decide-in-flight.js';
export type { InFlightCounts, InFlightInput } from './decide-in-flight.js';
export { OUTCOME_STARTS_COOLDOWN, RateOutcome, recordOutcome } from './record-outcome.js';
export type { RecordOutcomeInput } from './record-outcome.js';
export type { PolicyError } from './policy-error.js';
