import { describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS, assertRateLimits, rateLimitsFrom } from '../src/index.js';

describe('rate limits', () => {
  it('defaults carry the provisional numbers', () => {
    expect(DEFAULT_RATE_LIMITS.maxGlobalInFlight).toBe(1);
    expect(DEFAULT_RATE_LIMITS.maxOutstandingPreparedPerTarget).toBe(1);
    expect(DEFAULT_RATE_LIMITS.targetCooldownMs).toBe(60_000);
    expect(DEFAULT_RATE_LIMITS.reconciliationLockoutThreshold).toBe(3);
    expect(Object.isFrozen(DEFAULT_RATE_LIMITS)).toBe(true);
  });

  it('rateLimitsFrom overrides and validates', () => {
    const l = rateLimitsFrom({ targetCooldownMs: 5_000 });
    expect(l.targetCooldownMs).toBe(5_000);
    expect(l.maxGlobalInFlight).toBe(1);
    expect(Object.isFrozen(l)).toBe(true);
    expect(() => rateLimitsFrom({ maxGlobalInFlight: 0 })).toThrow(/maxGlobalInFlight/);
    expect(() => rateLimitsFrom({ windowMs: 1.5 })).toThrow(/windowMs/);
    expect(() => rateLimitsFrom({ targetCooldownMs: -1 })).toThrow(/targetCooldownMs/);
    expect(() => rateLimitsFrom({ reconciliationLockoutThreshold: Number.NaN })).toThrow(/reconciliationLockoutThreshold/);
    expect(() => rateLimitsFrom({ bogus: 1 } as never)).toThrow(/unknown key/);
  });

  it('assertRateLimits requires every key', () => {
    const { windowMs: _omit, ...partial } = DEFAULT_RATE_LIMITS;
    expect(() => assertRateLimits(partial, 'limits')).toThrow(/limits.windowMs/);
    expect(() => assertRateLimits(null, 'limits')).toThrow(TypeError);
    expect(assertRateLimits({ ...DEFAULT_RATE_LIMITS }, 'limits')).toEqual(DEFAULT_RATE_LIMITS);
  });
});
