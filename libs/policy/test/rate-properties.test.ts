import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RateRefusalReason, parseRateWindowState, recordOutcome } from '../src/index.js';
import type { RateWindowState } from '../src/index.js';
import { CAP, CAP2, EMPTY, T0, limits, prepare } from './rate-helpers.js';

const TARGETS = ['a', 'b', 'c'].map((c) => c.repeat(64));
const step = fc.record({
  dt: fc.integer({ min: 0, max: 700 }),
  target: fc.constantFrom(...TARGETS),
  capability: fc.constantFrom(CAP, CAP2),
  outcome: fc.option(fc.constantFrom('VERIFIED', 'FAILED', 'EXPIRED') as fc.Arbitrary<'VERIFIED' | 'FAILED' | 'EXPIRED'>, {
    nil: undefined,
  }),
});

describe('rate policy properties', () => {
  it('no window of windowMs ever holds more admitted prepares than the limits, per target and per capability', () => {
    const l = limits({ windowMs: 1_000, maxPreparesPerTargetPerWindow: 2, maxPreparesPerCapabilityPerWindow: 3, targetCooldownMs: 300 });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        let s: RateWindowState = EMPTY;
        let now = T0;
        const admitted: Array<{ t: number; target: string; capability: string }> = [];
        for (const st of steps) {
          now += st.dt;
          const d = prepare(s, now, l, { target: st.target, capability: st.capability });
          if (d.allowed) admitted.push({ t: now, target: st.target, capability: st.capability });
          else expect(d.nextState).toBe(s);
          s = d.nextState;
          if (st.outcome !== undefined) {
            s = recordOutcome({ nowMs: now, capability: st.capability, targetDigest: st.target, outcome: st.outcome, state: s, limits: l });
          }
          // the state always survives a JSON round trip
          expect(parseRateWindowState(JSON.parse(JSON.stringify(s)))).toEqual(s);
        }
        for (const a of admitted) {
          const inWindow = admitted.filter((b) => b.t <= a.t && a.t - b.t < l.windowMs);
          expect(inWindow.filter((b) => b.target === a.target).length).toBeLessThanOrEqual(2);
          expect(inWindow.filter((b) => b.capability === a.capability).length).toBeLessThanOrEqual(3);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('any earlier clock reading is refused with CLOCK_REGRESSION', () => {
    const l = limits();
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 1, max: 10_000_000 }), (first, back) => {
        const d1 = prepare(EMPTY, T0 + first, l);
        expect(d1.allowed).toBe(true);
        const d2 = prepare(d1.nextState, T0 + first - back, l, { target: TARGETS[1]! });
        expect(d2.reason).toBe(RateRefusalReason.CLOCK_REGRESSION);
      }),
      { numRuns: 200 },
    );
  });
});
