import { describe, expect, it } from 'vitest';
import { Capability, DEFAULT_RATE_LIMITS, OUTCOME_STARTS_COOLDOWN, RateOutcome, recordOutcome, targetCooldownMsOf } from '../src/index.js';
import type { RateOutcome as RateOutcomeT } from '../src/index.js';
import { CAP, EMPTY, T0, T1, admit, limits, prepare } from './rate-helpers.js';

const l = limits({ targetCooldownMs: 60_000, windowMs: 3_600_000 });

describe('recordOutcome: what each outcome counts for', () => {
  const table: Array<[RateOutcomeT, boolean]> = [
    ['VERIFIED', true],
    ['FAILED', true],
    ['ROLLED_BACK', true],
    ['ROLLBACK_FAILED', true],
    ['EXPIRED', false],
    ['RECONCILIATION', false],
  ];

  it('the documented table is complete', () => {
    expect(Object.keys(OUTCOME_STARTS_COOLDOWN).sort()).toEqual(Object.values(RateOutcome).sort());
    expect(Object.isFrozen(OUTCOME_STARTS_COOLDOWN)).toBe(true);
  });

  it.each(table)('%s starts a cooldown: %s; the admitted prepare stays in its window either way', (outcome, cools) => {
    expect(OUTCOME_STARTS_COOLDOWN[outcome]).toBe(cools);
    const admitted = admit(EMPTY, T0, l);
    const s = recordOutcome({ nowMs: T0 + 1, capability: CAP, targetDigest: T1, outcome, state: admitted, limits: l });
    expect(Object.hasOwn(s.targetCooldowns, T1)).toBe(cools);
    expect(s.targetWindows[T1]).toEqual([T0]);
    expect(prepare(s, T0 + 2, l).allowed).toBe(!cools);
  });

  it('a clock regression never shortens a cooldown: it starts at the high-water mark', () => {
    const s0 = admit(EMPTY, T0 + 10_000, l);
    const s = recordOutcome({ nowMs: T0, capability: CAP, targetDigest: T1, outcome: 'FAILED', state: s0, limits: l });
    expect(s.targetCooldowns[T1]).toBe(T0 + 10_000);
    expect(prepare(s, T0 + 69_999, l).allowed).toBe(false);
    expect(prepare(s, T0 + 70_000, l).allowed).toBe(true);
  });

  it('a later outcome for the same target restarts its cooldown; elapsed cooldowns are pruned', () => {
    let s = recordOutcome({ nowMs: T0, capability: CAP, targetDigest: T1, outcome: 'VERIFIED', state: EMPTY, limits: l });
    s = recordOutcome({ nowMs: T0 + 30_000, capability: CAP, targetDigest: T1, outcome: 'ROLLED_BACK', state: s, limits: l });
    expect(s.targetCooldowns[T1]).toBe(T0 + 30_000);
    s = recordOutcome({ nowMs: T0 + 90_000, capability: CAP, targetDigest: 'c'.repeat(64), outcome: 'EXPIRED', state: s, limits: l });
    expect(s.targetCooldowns).toEqual({});
  });

  it('the alias entries have no target cooldown (block, then unblock at once); the description keeps its 60 s', () => {
    const entries = Capability.ALIAS_ENTRIES_WRITE;
    expect(targetCooldownMsOf(entries, DEFAULT_RATE_LIMITS)).toBe(0);
    expect(targetCooldownMsOf(Capability.ALIAS_WRITE, DEFAULT_RATE_LIMITS)).toBe(60_000);
    const admitted = admit(EMPTY, T0, l, { capability: entries });
    const s = recordOutcome({ nowMs: T0 + 1, capability: entries, targetDigest: T1, outcome: 'VERIFIED', state: admitted, limits: l });
    expect(s.targetCooldowns).toEqual({});
    expect(prepare(s, T0 + 2, l, { capability: entries }).allowed).toBe(true);
    // A cooldown already running for the target (recorded before) does not hold the entries back either.
    const described = recordOutcome({ nowMs: T0 + 1, capability: CAP, targetDigest: T1, outcome: 'VERIFIED', state: admitted, limits: l });
    expect(prepare(described, T0 + 2, l, { capability: entries }).allowed).toBe(true);
    expect(prepare(described, T0 + 2, l).allowed).toBe(false);
  });

  it('validates arguments', () => {
    const ok = { nowMs: T0, capability: CAP, targetDigest: T1, outcome: 'FAILED', state: EMPTY, limits: l };
    expect(() => recordOutcome({ ...ok, outcome: 'EXECUTING' } as never)).toThrow(/"outcome"/);
    expect(() => recordOutcome({ ...ok, capability: 'NOT_A_CAPABILITY' } as never)).toThrow(/"capability"/);
    expect(() => recordOutcome({ ...ok, outcome: 'toString' } as never)).toThrow(/"outcome"/);
    expect(() => recordOutcome({ ...ok, targetDigest: 'x' } as never)).toThrow(/"targetDigest"/);
    expect(() => recordOutcome({ ...ok, nowMs: Number.MAX_SAFE_INTEGER + 1 } as never)).toThrow(/"nowMs"/);
  });
});
