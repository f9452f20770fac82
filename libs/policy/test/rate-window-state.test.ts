import { describe, expect, it } from 'vitest';
import { EMPTY_RATE_WINDOW_STATE, RateStateError, isRateWindowState, parseRateWindowState, recordOutcome } from '../src/index.js';
import { CAP, CAP2, T0, T1, T2, admit, limits } from './rate-helpers.js';

describe('rate window state', () => {
  it('is plain JSON: a round trip through JSON text gives an equal, byte-identical state', () => {
    const l = limits({ targetCooldownMs: 60_000 });
    let s = admit(EMPTY_RATE_WINDOW_STATE, T0, l, { target: T2, capability: CAP2 });
    s = admit(s, T0 + 1, l, { target: T1 });
    s = recordOutcome({ nowMs: T0 + 2, capability: CAP, targetDigest: T1, outcome: 'FAILED', state: s, limits: l });
    const text = JSON.stringify(s);
    const back = parseRateWindowState(JSON.parse(text));
    expect(back).toEqual(s);
    expect(JSON.stringify(back)).toBe(text);
    expect(Object.isFrozen(back)).toBe(true);
    expect(Object.isFrozen(back.capabilityWindows)).toBe(true);
    expect(Object.isFrozen(back.targetWindows[T1])).toBe(true);
    // keys are sorted, so equal states serialize identically
    expect(Object.keys(back.capabilityWindows)).toEqual([CAP, CAP2].sort());
  });

  it("a state that passed keeps passing, and so does its decisions' output once checked", () => {
    const l = limits({ targetCooldownMs: 60_000 });
    const s = parseRateWindowState(JSON.parse(JSON.stringify(admit(EMPTY_RATE_WINDOW_STATE, T0, l, { target: T1 }))));
    expect(isRateWindowState(s)).toBe(true);
    expect(isRateWindowState(s)).toBe(true);
    const next = recordOutcome({ nowMs: T0 + 1, capability: CAP, targetDigest: T1, outcome: 'FAILED', state: s, limits: l });
    expect([isRateWindowState(next), isRateWindowState(next)]).toEqual([true, true]);
  });

  it('the empty state parses and is frozen', () => {
    expect(parseRateWindowState(JSON.parse(JSON.stringify(EMPTY_RATE_WINDOW_STATE)))).toEqual(EMPTY_RATE_WINDOW_STATE);
    expect(Object.isFrozen(EMPTY_RATE_WINDOW_STATE)).toBe(true);
  });

  const base = { version: 1, highWaterMs: T0, capabilityWindows: {}, targetWindows: {}, targetCooldowns: {} };
  const bad: Array<[string, unknown, string]> = [
    ['wrong version', { ...base, version: 2 }, '$.version'],
    ['extra key', { ...base, note: 'x' }, '$'],
    ['unknown capability', { ...base, capabilityWindows: { ALIAS_DELETE: [T0] } }, '$.capabilityWindows'],
    [
      'prototype key',
      JSON.parse(`{"version":1,"highWaterMs":${T0},"capabilityWindows":{},"targetWindows":{"__proto__":[1]},"targetCooldowns":{}}`),
      '$.targetWindows',
    ],
    ['upper-case digest', { ...base, targetCooldowns: { ['A'.repeat(64)]: T0 } }, '$.targetCooldowns'],
    ['time after high-water mark', { ...base, targetCooldowns: { [T1]: T0 + 1 } }, '$'],
    ['times without a high-water mark', { ...base, highWaterMs: null, targetWindows: { [T1]: [T0] } }, '$'],
    ['unsorted times', { ...base, targetWindows: { [T1]: [T0, T0 - 5] } }, '$'],
    ['empty window array', { ...base, targetWindows: { [T1]: [] } }, '$.targetWindows'],
    ['float time', { ...base, highWaterMs: 1.5 }, '$.highWaterMs'],
    ['negative time', { ...base, highWaterMs: -1 }, '$.highWaterMs'],
    ['not an object', 'state', '$'],
  ];

  it.each(bad)('refuses %s with RateStateError', (_label, value, path) => {
    expect(isRateWindowState(value)).toBe(false);
    // Refused again on a second look: only a state that passed is remembered as passing.
    expect(isRateWindowState(value)).toBe(false);
    let caught: unknown;
    try {
      parseRateWindowState(value);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(RateStateError);
    expect((caught as RateStateError).code).toBe('INVALID_RATE_STATE');
    expect((caught as RateStateError).path).toBe(path);
    expect((caught as Error).message).not.toContain(T1);
  });
});
