// Rate and blast-radius limits that never bind in a test that is not about them (docs/DESIGN.md §3): the
// store's real defaults refuse a second PREPARE of one target for 60 s. Shaped like policy's RateLimits.
const HOUR_MS = 3_600_000;

export const LOOSE_RATE_LIMITS = Object.freeze({
  maxGlobalInFlight: 100,
  maxInFlightPerCapability: 100,
  maxOutstandingPreparedPerTarget: 100,
  targetCooldownMs: 0,
  reconciliationLockoutThreshold: 100,
  windowMs: HOUR_MS,
  maxPreparesPerTargetPerWindow: 1000,
  maxPreparesPerCapabilityPerWindow: 1000,
});
