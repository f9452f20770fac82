import { assertRecord } from '@pfsense-mcp/foundation';
/**
 * Rate and blast-radius limits (docs/DESIGN.md §3). Read from configuration at
 * startup; there is no runtime way to change them (spec: Non-goals).
 */
export interface RateLimits {
  /** Contracts EXECUTING or ROLLING_BACK at once, all capabilities (default 1). Checked at PREPARED → EXECUTING. */
  readonly maxGlobalInFlight: number;
  /** The same, per capability. Implied by the global 1 today; its own knob so loosening the global one keeps a per-capability bound. */
  readonly maxInFlightPerCapability: number;
  /** Contracts PREPARING/PREPARED per target (default 1). Checked at PREPARE. */
  readonly maxOutstandingPreparedPerTarget: number;
  /** Quiet time per target after an outcome that starts a cooldown (default 60 s). Checked at PREPARE. */
  readonly targetCooldownMs: number;
  /** RECONCILIATION contracts at which every PREPARE is refused, system-wide (default 3). */
  readonly reconciliationLockoutThreshold: number;
  /** Length of the sliding PREPARE windows below. */
  readonly windowMs: number;
  /** Admitted PREPAREs per target within windowMs. */
  readonly maxPreparesPerTargetPerWindow: number;
  /** Admitted PREPAREs per capability within windowMs. */
  readonly maxPreparesPerCapabilityPerWindow: number;
}

/**
 * The provisional defaults (in-flight 1, outstanding PREPARED per target 1, cooldown 60 s, lockout 3),
 * shipped as the only defaults until lab evidence revises them. The sliding-window numbers are
 * this product's own provisional, conservative choice (each PREPARE already needs a
 * human-signed authorization, so legitimate use is far below them).
 */
export const DEFAULT_RATE_LIMITS: RateLimits = Object.freeze({
  maxGlobalInFlight: 1,
  maxInFlightPerCapability: 1,
  maxOutstandingPreparedPerTarget: 1,
  targetCooldownMs: 60_000,
  reconciliationLockoutThreshold: 3,
  windowMs: 3_600_000,
  maxPreparesPerTargetPerWindow: 10,
  maxPreparesPerCapabilityPerWindow: 60,
});

const MAX_DURATION_MS = 365 * 24 * 3_600_000;
const MAX_COUNT = 10_000;

const BOUNDS: Readonly<Record<keyof RateLimits, readonly [number, number]>> = Object.freeze({
  maxGlobalInFlight: [1, MAX_COUNT],
  maxInFlightPerCapability: [1, MAX_COUNT],
  maxOutstandingPreparedPerTarget: [1, MAX_COUNT],
  targetCooldownMs: [0, MAX_DURATION_MS],
  reconciliationLockoutThreshold: [1, MAX_COUNT],
  windowMs: [1, MAX_DURATION_MS],
  maxPreparesPerTargetPerWindow: [1, MAX_COUNT],
  maxPreparesPerCapabilityPerWindow: [1, MAX_COUNT],
});

const LIMIT_KEYS = Object.freeze(Object.keys(BOUNDS) as (keyof RateLimits)[]);

/** Validates a complete RateLimits (exact keys, integers in range) and returns a frozen copy. */
export function assertRateLimits(value: unknown, name: string): RateLimits {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError(`${name} must be a RateLimits object`);
  }
  const keys = Object.keys(value);
  const extra = keys.find((k) => !(LIMIT_KEYS as readonly string[]).includes(k));
  if (extra !== undefined) throw new TypeError(`${name} has an unknown key`);
  const out: Record<string, number> = {};
  for (const k of LIMIT_KEYS) {
    const v = (value as Record<string, unknown>)[k];
    const [min, max] = BOUNDS[k];
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min || v > max) {
      throw new TypeError(`${name}.${k} must be an integer in [${min}, ${max}]`);
    }
    out[k] = v;
  }
  return Object.freeze(out) as unknown as RateLimits;
}

/** DEFAULT_RATE_LIMITS overridden by the given (validated) values; for configuration loading. */
export function rateLimitsFrom(overrides: Partial<RateLimits> = {}): RateLimits {
  assertRecord(overrides, 'rateLimitsFrom: "overrides"');
  return assertRateLimits({ ...DEFAULT_RATE_LIMITS, ...overrides }, 'rateLimitsFrom: "overrides"');
}
