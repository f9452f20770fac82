import { describe, expect, it } from 'vitest';
import {
  IllegalTransitionError,
  RECOVERY_EVENTS,
  RECOVERY_STATES,
  RecoveryEvent,
  RecoveryState,
  TRANSITIONS,
  TRANSITION_TABLE,
  canTransition,
  nextState,
} from '../src/index.js';

// Written out by hand from docs/DESIGN.md §3 — deliberately NOT derived from the implementation.
// Every one of the 10 × 14 pairs is listed; '-' means the pair must be refused.
const _ = '-';
const EXPECTED: Record<string, Record<string, string>> = {
  PREPARING: {
    PREPARE: 'PREPARED',
    EXPIRE: 'EXPIRED',
    BEGIN_EXECUTION: _,
    EXECUTION_VERIFIED: _,
    EXECUTION_FAILED: _,
    EXECUTION_AMBIGUOUS: _,
    BEGIN_ROLLBACK: _,
    ROLLBACK_VERIFIED: _,
    ROLLBACK_FAILED: _,
    ROLLBACK_AMBIGUOUS: _,
    RESOLVE_FORWARD_APPLIED: _,
    RESOLVE_FORWARD_NOT_APPLIED: _,
    RESOLVE_ROLLBACK_APPLIED: _,
    RESOLVE_ROLLBACK_NOT_APPLIED: _,
  },
  PREPARED: {
    PREPARE: _,
    EXPIRE: 'EXPIRED',
    BEGIN_EXECUTION: 'EXECUTING',
    EXECUTION_VERIFIED: _,
    EXECUTION_FAILED: _,
    EXECUTION_AMBIGUOUS: _,
    BEGIN_ROLLBACK: _,
    ROLLBACK_VERIFIED: _,
    ROLLBACK_FAILED: _,
    ROLLBACK_AMBIGUOUS: _,
    RESOLVE_FORWARD_APPLIED: _,
    RESOLVE_FORWARD_NOT_APPLIED: _,
    RESOLVE_ROLLBACK_APPLIED: _,
    RESOLVE_ROLLBACK_NOT_APPLIED: _,
  },
  EXECUTING: {
    PREPARE: _,
    EXPIRE: _,
    BEGIN_EXECUTION: _,
    EXECUTION_VERIFIED: 'VERIFIED',
    EXECUTION_FAILED: 'FAILED',
    EXECUTION_AMBIGUOUS: 'RECONCILIATION',
    BEGIN_ROLLBACK: _,
    ROLLBACK_VERIFIED: _,
    ROLLBACK_FAILED: _,
    ROLLBACK_AMBIGUOUS: _,
    RESOLVE_FORWARD_APPLIED: _,
    RESOLVE_FORWARD_NOT_APPLIED: _,
    RESOLVE_ROLLBACK_APPLIED: _,
    RESOLVE_ROLLBACK_NOT_APPLIED: _,
  },
  VERIFIED: {
    PREPARE: _,
    EXPIRE: _,
    BEGIN_EXECUTION: _,
    EXECUTION_VERIFIED: _,
    EXECUTION_FAILED: _,
    EXECUTION_AMBIGUOUS: _,
    BEGIN_ROLLBACK: 'ROLLING_BACK',
    ROLLBACK_VERIFIED: _,
    ROLLBACK_FAILED: _,
    ROLLBACK_AMBIGUOUS: _,
    RESOLVE_FORWARD_APPLIED: _,
    RESOLVE_FORWARD_NOT_APPLIED: _,
    RESOLVE_ROLLBACK_APPLIED: _,
    RESOLVE_ROLLBACK_NOT_APPLIED: _,
  },
  ROLLING_BACK: {
    PREPARE: _,
    EXPIRE: _,
    BEGIN_EXECUTION: _,
    EXECUTION_VERIFIED: _,
    EXECUTION_FAILED: _,
    EXECUTION_AMBIGUOUS: _,
    BEGIN_ROLLBACK: _,
    ROLLBACK_VERIFIED: 'ROLLED_BACK',
    ROLLBACK_FAILED: 'ROLLBACK_FAILED',
    ROLLBACK_AMBIGUOUS: 'RECONCILIATION',
    RESOLVE_FORWARD_APPLIED: _,
    RESOLVE_FORWARD_NOT_APPLIED: _,
    RESOLVE_ROLLBACK_APPLIED: _,
    RESOLVE_ROLLBACK_NOT_APPLIED: _,
  },
  ROLLED_BACK: {
    PREPARE: _,
    EXPIRE: _,
    BEGIN_EXECUTION: _,
    EXECUTION_VERIFIED: _,
    EXECUTION_FAILED: _,
    EXECUTION_AMBIGUOUS: _,
    BEGIN_ROLLBACK: _,
    ROLLBACK_VERIFIED: _,
    ROLLBACK_FAILED: _,
    ROLLBACK_AMBIGUOUS: _,
    RESOLVE_FORWARD_APPLIED: _,
    RESOLVE_FORWARD_NOT_APPLIED: _,
    RESOLVE_ROLLBACK_APPLIED: _,
    RESOLVE_ROLLBACK_NOT_APPLIED: _,
  },
  FAILED: {
    PREPARE: _,
    EXPIRE: _,
    BEGIN_EXECUTION: _,
    EXECUTION_VERIFIED: _,
    EXECUTION_FAILED: _,
    EXECUTION_AMBIGUOUS: _,
    BEGIN_ROLLBACK: _,
    ROLLBACK_VERIFIED: _,
    ROLLBACK_FAILED: _,
    ROLLBACK_AMBIGUOUS: _,
    RESOLVE_FORWARD_APPLIED: _,
    RESOLVE_FORWARD_NOT_APPLIED: _,
    RESOLVE_ROLLBACK_APPLIED: _,
    RESOLVE_ROLLBACK_NOT_APPLIED: _,
  },
  ROLLBACK_FAILED: {
    PREPARE: _,
    EXPIRE: _,
    BEGIN_EXECUTION: _,
    EXECUTION_VERIFIED: _,
    EXECUTION_FAILED: _,
    EXECUTION_AMBIGUOUS: _,
    BEGIN_ROLLBACK: _,
    ROLLBACK_VERIFIED: _,
    ROLLBACK_FAILED: _,
    ROLLBACK_AMBIGUOUS: _,
    RESOLVE_FORWARD_APPLIED: _,
    RESOLVE_FORWARD_NOT_APPLIED: _,
    RESOLVE_ROLLBACK_APPLIED: _,
    RESOLVE_ROLLBACK_NOT_APPLIED: _,
  },
  RECONCILIATION: {
    PREPARE: _,
    EXPIRE: _,
    BEGIN_EXECUTION: _,
    EXECUTION_VERIFIED: _,
    EXECUTION_FAILED: _,
    EXECUTION_AMBIGUOUS: _,
    BEGIN_ROLLBACK: _,
    ROLLBACK_VERIFIED: _,
    ROLLBACK_FAILED: _,
    ROLLBACK_AMBIGUOUS: _,
    RESOLVE_FORWARD_APPLIED: 'VERIFIED',
    RESOLVE_FORWARD_NOT_APPLIED: 'FAILED',
    RESOLVE_ROLLBACK_APPLIED: 'ROLLED_BACK',
    RESOLVE_ROLLBACK_NOT_APPLIED: 'ROLLBACK_FAILED',
  },
  EXPIRED: {
    PREPARE: _,
    EXPIRE: _,
    BEGIN_EXECUTION: _,
    EXECUTION_VERIFIED: _,
    EXECUTION_FAILED: _,
    EXECUTION_AMBIGUOUS: _,
    BEGIN_ROLLBACK: _,
    ROLLBACK_VERIFIED: _,
    ROLLBACK_FAILED: _,
    ROLLBACK_AMBIGUOUS: _,
    RESOLVE_FORWARD_APPLIED: _,
    RESOLVE_FORWARD_NOT_APPLIED: _,
    RESOLVE_ROLLBACK_APPLIED: _,
    RESOLVE_ROLLBACK_NOT_APPLIED: _,
  },
};

const ALL_STATES = [
  'PREPARING',
  'PREPARED',
  'EXECUTING',
  'VERIFIED',
  'ROLLING_BACK',
  'ROLLED_BACK',
  'FAILED',
  'ROLLBACK_FAILED',
  'RECONCILIATION',
  'EXPIRED',
];
const ALL_EVENTS = [
  'PREPARE',
  'EXPIRE',
  'BEGIN_EXECUTION',
  'EXECUTION_VERIFIED',
  'EXECUTION_FAILED',
  'EXECUTION_AMBIGUOUS',
  'BEGIN_ROLLBACK',
  'ROLLBACK_VERIFIED',
  'ROLLBACK_FAILED',
  'ROLLBACK_AMBIGUOUS',
  'RESOLVE_FORWARD_APPLIED',
  'RESOLVE_FORWARD_NOT_APPLIED',
  'RESOLVE_ROLLBACK_APPLIED',
  'RESOLVE_ROLLBACK_NOT_APPLIED',
];

const PAIRS = ALL_STATES.flatMap((s) => ALL_EVENTS.map((e) => [s, e, EXPECTED[s]![e]!] as const));

describe('closed transition table', () => {
  it('the expected table is complete: 10 states × 14 events', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...ALL_STATES].sort());
    for (const s of ALL_STATES) expect(Object.keys(EXPECTED[s]!).sort()).toEqual([...ALL_EVENTS].sort());
    expect(PAIRS).toHaveLength(140);
  });

  it('the exported enums are exactly the documented ones', () => {
    expect([...RECOVERY_STATES].sort()).toEqual([...ALL_STATES].sort());
    expect([...RECOVERY_EVENTS].sort()).toEqual([...ALL_EVENTS].sort());
    for (const s of ALL_STATES) expect(RecoveryState[s as keyof typeof RecoveryState]).toBe(s);
    for (const e of ALL_EVENTS) expect(RecoveryEvent[e as keyof typeof RecoveryEvent]).toBe(e);
  });

  it.each(PAIRS)('%s + %s → %s', (state, event, expected) => {
    const s = state as RecoveryState;
    const e = event as RecoveryEvent;
    if (expected === _) {
      expect(canTransition(s, e)).toBe(false);
      let caught: unknown;
      try {
        nextState(s, e);
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(IllegalTransitionError);
      const ite = caught as IllegalTransitionError;
      expect(ite.name).toBe('IllegalTransitionError');
      expect(ite.code).toBe('ILLEGAL_TRANSITION');
      expect(ite.state).toBe(state);
      expect(ite.event).toBe(event);
    } else {
      expect(canTransition(s, e)).toBe(true);
      expect(nextState(s, e)).toBe(expected);
    }
  });

  it('the exported data agrees with the hand-written table', () => {
    const legal = PAIRS.filter(([, , to]) => to !== _);
    expect(TRANSITIONS).toHaveLength(legal.length);
    for (const [s, e, to] of PAIRS) {
      const row = TRANSITION_TABLE[s as RecoveryState] as Record<string, string | undefined>;
      expect(row[e]).toBe(to === _ ? undefined : to);
    }
    for (const t of TRANSITIONS) expect(EXPECTED[t.from]![t.event]).toBe(t.to);
  });
});
