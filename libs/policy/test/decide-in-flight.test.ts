import { describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS, RateRefusalReason, decideInFlight } from '../src/index.js';
import type { InFlightCounts } from '../src/index.js';
import { CAP, EMPTY, T0, admit, limits } from './rate-helpers.js';

const run = (counts: InFlightCounts, l = DEFAULT_RATE_LIMITS, nowMs = T0, state = EMPTY) =>
  decideInFlight({ nowMs, capability: CAP, state, limits: l, counts });

describe('decideInFlight (PREPARED → EXECUTING checkpoint)', () => {
  it('global in-flight: refused at the limit (default 1), allowed once the other terminates', () => {
    expect(run({ inFlightGlobal: 1, inFlightForCapability: 0 })).toMatchObject({
      allowed: false,
      reason: RateRefusalReason.GLOBAL_IN_FLIGHT,
    });
    expect(run({ inFlightGlobal: 0, inFlightForCapability: 0 }).allowed).toBe(true);
  });

  it('per capability in-flight is its own bound when the global one is loosened', () => {
    const l = limits({ maxGlobalInFlight: 5, maxInFlightPerCapability: 2 });
    expect(run({ inFlightGlobal: 3, inFlightForCapability: 1 }, l).allowed).toBe(true);
    expect(run({ inFlightGlobal: 3, inFlightForCapability: 2 }, l).reason).toBe(RateRefusalReason.CAPABILITY_IN_FLIGHT);
    expect(run({ inFlightGlobal: 5, inFlightForCapability: 0 }, l).reason).toBe(RateRefusalReason.GLOBAL_IN_FLIGHT);
  });

  it('clock regression fails closed; admission advances the high-water mark and changes nothing else', () => {
    const l = limits();
    const s = admit(EMPTY, T0 + 100, l);
    const back = run({ inFlightGlobal: 0, inFlightForCapability: 0 }, l, T0 + 99, s);
    expect(back).toMatchObject({ allowed: false, reason: RateRefusalReason.CLOCK_REGRESSION });
    expect(back.nextState).toBe(s);
    const ok = run({ inFlightGlobal: 0, inFlightForCapability: 0 }, l, T0 + 200, s);
    expect(ok.allowed).toBe(true);
    expect(ok.nextState.highWaterMs).toBe(T0 + 200);
    expect(ok.nextState.capabilityWindows).toEqual(s.capabilityWindows);
  });

  it('validates counts', () => {
    expect(() => run({ inFlightGlobal: 0, inFlightForCapability: 1 })).toThrow(/cannot exceed/);
    expect(() => run({ inFlightGlobal: -1, inFlightForCapability: 0 })).toThrow(/"counts.inFlightGlobal"/);
    expect(() => run(undefined as never)).toThrow(/"counts"/);
  });
});
