import { describe, expect, it } from 'vitest';
import {
  Capability,
  DEFAULT_RATE_LIMITS,
  RateRefusalReason,
  decideRateLimit,
  isReconciliationLockoutActive,
  recordOutcome,
} from '../src/index.js';
import type { RateWindowState } from '../src/index.js';
import { CAP, CAP2, EMPTY, NONE, T0, T1, T2, admit, limits, prepare } from './rate-helpers.js';

describe('decideRateLimit: sliding windows', () => {
  it('per target: the (max+1)th prepare inside the window is refused; it slides back in at exactly windowMs', () => {
    const l = limits({ windowMs: 1_000, maxPreparesPerTargetPerWindow: 2 });
    let s = admit(EMPTY, T0, l);
    s = admit(s, T0 + 400, l);
    const refused = prepare(s, T0 + 999, l);
    expect(refused).toMatchObject({ allowed: false, reason: RateRefusalReason.TARGET_RATE });
    expect(refused.nextState).toBe(s); // a refusal records nothing
    // at T0+1000 the first admission has left the window (boundary: nowMs - t < windowMs is live)
    s = admit(s, T0 + 1_000, l);
    // now the live ones are T0+400 and T0+1000
    expect(prepare(s, T0 + 1_399, l).reason).toBe(RateRefusalReason.TARGET_RATE);
    expect(prepare(s, T0 + 1_400, l).allowed).toBe(true);
  });

  it('per target: another target is not limited by the first one', () => {
    const l = limits({ windowMs: 1_000, maxPreparesPerTargetPerWindow: 1 });
    const s = admit(EMPTY, T0, l, { target: T1 });
    expect(prepare(s, T0 + 1, l, { target: T1 }).reason).toBe(RateRefusalReason.TARGET_RATE);
    expect(prepare(s, T0 + 1, l, { target: T2 }).allowed).toBe(true);
  });

  it('per capability: counts across targets, separately per capability', () => {
    const l = limits({ windowMs: 10_000, maxPreparesPerCapabilityPerWindow: 2 });
    let s = admit(EMPTY, T0, l, { target: T1 });
    s = admit(s, T0 + 1, l, { target: T2 });
    const t3 = 'c'.repeat(64);
    expect(prepare(s, T0 + 2, l, { target: t3 }).reason).toBe(RateRefusalReason.CAPABILITY_RATE);
    expect(prepare(s, T0 + 2, l, { target: t3, capability: CAP2 }).allowed).toBe(true);
    expect(prepare(s, T0 + 10_000, l, { target: t3 }).allowed).toBe(true);
  });

  it('refused attempts do not extend a window (hammering does not lengthen the wait)', () => {
    const l = limits({ windowMs: 1_000, maxPreparesPerTargetPerWindow: 1 });
    const s = admit(EMPTY, T0, l);
    let cur: RateWindowState = s;
    for (let t = T0 + 1; t < T0 + 1_000; t += 100) {
      const d = prepare(cur, t, l);
      expect(d.allowed).toBe(false);
      cur = d.nextState;
    }
    expect(cur).toBe(s);
    expect(prepare(cur, T0 + 1_000, l).allowed).toBe(true);
  });

  it('expired entries are pruned from the persisted state on admission', () => {
    const l = limits({ windowMs: 1_000 });
    let s = admit(EMPTY, T0, l, { target: T1 });
    s = admit(s, T0 + 5_000, l, { target: T2 });
    expect(Object.keys(s.targetWindows)).toEqual([T2]);
    expect(s.capabilityWindows[CAP]).toEqual([T0 + 5_000]);
  });
});

describe('decideRateLimit: cooldown, outstanding PREPARED, reconciliation lockout', () => {
  it('cooldown: refused until exactly cooldownMs after the outcome, per target', () => {
    const l = limits({ targetCooldownMs: 60_000 });
    let s = admit(EMPTY, T0, l);
    s = recordOutcome({ nowMs: T0 + 10, capability: CAP, targetDigest: T1, outcome: 'VERIFIED', state: s, limits: l });
    expect(prepare(s, T0 + 10, l)).toMatchObject({ reason: RateRefusalReason.TARGET_COOLDOWN, retryAtMs: T0 + 60_010 });
    expect(prepare(s, T0 + 60_009, l)).toMatchObject({ reason: RateRefusalReason.TARGET_COOLDOWN, retryAtMs: T0 + 60_010 });
    // Only a cooldown says when: waiting is all it needs.
    expect(prepare(s, T0 + 10, l, { counts: { outstandingPreparedForTarget: 1, reconciliation: 0 } })).not.toHaveProperty('retryAtMs');
    expect(prepare(s, T0 + 60_010, l).allowed).toBe(true);
    expect(prepare(s, T0 + 10, l, { target: T2 }).allowed).toBe(true);
  });

  it('outstanding PREPARED per target: refused at the limit, allowed again once it is gone', () => {
    const l = limits();
    expect(prepare(EMPTY, T0, l, { counts: { outstandingPreparedForTarget: 1, reconciliation: 0 } }).reason).toBe(
      RateRefusalReason.TARGET_OUTSTANDING_PREPARED,
    );
    expect(prepare(EMPTY, T0, l, { counts: NONE }).allowed).toBe(true);
    const l2 = limits({ maxOutstandingPreparedPerTarget: 2 });
    expect(prepare(EMPTY, T0, l2, { counts: { outstandingPreparedForTarget: 1, reconciliation: 0 } }).allowed).toBe(true);
  });

  it('reconciliation lockout activates at exactly the threshold, for every capability, and clears below it', () => {
    const l = limits(); // threshold 3
    for (const capability of [CAP, CAP2, Capability.SYSTEM_DNS_READ]) {
      expect(prepare(EMPTY, T0, l, { capability, counts: { outstandingPreparedForTarget: 0, reconciliation: 3 } }).reason).toBe(
        RateRefusalReason.RECONCILIATION_LOCKOUT,
      );
    }
    expect(prepare(EMPTY, T0, l, { counts: { outstandingPreparedForTarget: 0, reconciliation: 2 } }).allowed).toBe(true);
    expect(isReconciliationLockoutActive(2, l)).toBe(false);
    expect(isReconciliationLockoutActive(3, l)).toBe(true);
    expect(isReconciliationLockoutActive(4, l)).toBe(true);
  });
});

describe('decideRateLimit: the clock', () => {
  it('a clock going backwards fails closed, even where every window would allow', () => {
    const l = limits();
    const s = admit(EMPTY, T0 + 1_000, l);
    const d = prepare(s, T0 + 999, l, { target: T2, capability: CAP2 });
    expect(d).toMatchObject({ allowed: false, reason: RateRefusalReason.CLOCK_REGRESSION });
    expect(d.nextState).toBe(s);
    // the same instant is not a regression
    expect(prepare(s, T0 + 1_000, l, { target: T2 }).allowed).toBe(true);
  });

  it('a recorded outcome also advances the high-water mark', () => {
    const l = limits();
    const s = recordOutcome({ nowMs: T0 + 500, capability: CAP, targetDigest: T2, outcome: 'EXPIRED', state: EMPTY, limits: l });
    expect(s.highWaterMs).toBe(T0 + 500);
    expect(prepare(s, T0 + 499, l).reason).toBe(RateRefusalReason.CLOCK_REGRESSION);
  });
});

describe('decideRateLimit: defaults and arguments', () => {
  it('with the default limits: one prepare, then cooldown after its outcome, then allowed after 60 s', () => {
    const l = DEFAULT_RATE_LIMITS;
    let s = admit(EMPTY, T0, l);
    expect(prepare(s, T0 + 1, l, { counts: { outstandingPreparedForTarget: 1, reconciliation: 0 } }).allowed).toBe(false);
    s = recordOutcome({ nowMs: T0 + 5_000, capability: CAP, targetDigest: T1, outcome: 'ROLLED_BACK', state: s, limits: l });
    expect(prepare(s, T0 + 64_999, l).reason).toBe(RateRefusalReason.TARGET_COOLDOWN);
    expect(prepare(s, T0 + 65_000, l).allowed).toBe(true);
  });

  it('decisions and states are frozen', () => {
    const d = prepare(EMPTY, T0, limits());
    expect(Object.isFrozen(d)).toBe(true);
    expect(Object.isFrozen(d.nextState)).toBe(true);
    expect(Object.isFrozen(d.nextState.capabilityWindows[CAP])).toBe(true);
  });

  it('validates every argument, naming it', () => {
    const ok = { nowMs: T0, capability: CAP, targetDigest: T1, state: EMPTY, limits: DEFAULT_RATE_LIMITS, counts: NONE };
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ nowMs: -1 }, /"nowMs"/],
      [{ nowMs: 1.5 }, /"nowMs"/],
      [{ nowMs: '1' }, /"nowMs"/],
      [{ capability: 'NOPE' }, /"capability"/],
      [{ targetDigest: 'A'.repeat(64) }, /"targetDigest"/],
      [{ targetDigest: 'a'.repeat(63) }, /"targetDigest"/],
      [{ state: { ...EMPTY, version: 2 } }, /"state"/],
      [{ limits: { ...DEFAULT_RATE_LIMITS, windowMs: 0 } }, /"limits"/],
      [{ counts: { outstandingPreparedForTarget: -1, reconciliation: 0 } }, /outstandingPreparedForTarget/],
      [{ counts: { outstandingPreparedForTarget: 0 } }, /"counts.reconciliation"/],
      [{ counts: null }, /"counts"/],
    ];
    for (const [over, msg] of cases) {
      expect(() => decideRateLimit({ ...ok, ...over } as never)).toThrow(TypeError);
      expect(() => decideRateLimit({ ...ok, ...over } as never)).toThrow(msg);
    }
    expect(() => decideRateLimit(null as never)).toThrow(/"input"/);
  });
});
