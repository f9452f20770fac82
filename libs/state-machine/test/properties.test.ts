import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  IllegalTransitionError,
  RECOVERY_EVENTS,
  RECOVERY_STATES,
  RecoveryEvent,
  RecoveryState,
  TERMINAL_STATES,
  isTerminal,
  nextState,
} from '../src/index.js';

const RUNS = { numRuns: 200 };
const anyEvent = fc.constantFrom(...RECOVERY_EVENTS);
const anyState = fc.constantFrom(...RECOVERY_STATES);

/** Apply events from `start`, skipping refused ones; returns the visited path of [event, state]. */
function walk(start: RecoveryState, events: readonly RecoveryEvent[]): Array<[RecoveryEvent, RecoveryState]> {
  const path: Array<[RecoveryEvent, RecoveryState]> = [];
  let s = start;
  for (const e of events) {
    try {
      s = nextState(s, e);
      path.push([e, s]);
    } catch (err) {
      if (!(err instanceof IllegalTransitionError)) throw err;
    }
  }
  return path;
}

describe('state machine properties', () => {
  it('nextState is total over the domain: a RecoveryState or IllegalTransitionError carrying the inputs', () => {
    fc.assert(
      fc.property(anyState, anyEvent, (s, e) => {
        try {
          const to = nextState(s, e);
          expect(RECOVERY_STATES).toContain(to);
          expect(nextState(s, e)).toBe(to); // deterministic
        } catch (err) {
          expect(err).toBeInstanceOf(IllegalTransitionError);
          expect((err as IllegalTransitionError).state).toBe(s);
          expect((err as IllegalTransitionError).event).toBe(e);
        }
      }),
      RUNS,
    );
  });

  it('random event sequences never leave a terminal state', () => {
    fc.assert(
      fc.property(anyState, fc.array(anyEvent, { maxLength: 40 }), (start, events) => {
        let s = start;
        for (const e of events) {
          if (isTerminal(s)) {
            expect(() => nextState(s, e)).toThrow(IllegalTransitionError);
            continue;
          }
          try {
            s = nextState(s, e);
          } catch (err) {
            expect(err).toBeInstanceOf(IllegalTransitionError);
          }
        }
      }),
      RUNS,
    );
  });

  it('every state is reachable from PREPARING', () => {
    const seen = new Set<RecoveryState>([RecoveryState.PREPARING]);
    const queue: RecoveryState[] = [RecoveryState.PREPARING];
    while (queue.length > 0) {
      const s = queue.shift()!;
      for (const e of RECOVERY_EVENTS) {
        try {
          const to = nextState(s, e);
          if (!seen.has(to)) {
            seen.add(to);
            queue.push(to);
          }
        } catch {
          // refused pair
        }
      }
    }
    expect([...seen].sort()).toEqual([...RECOVERY_STATES].sort());
  });

  it('a state has an exit exactly when it is not terminal', () => {
    for (const s of RECOVERY_STATES) {
      const exits = RECOVERY_EVENTS.filter((e) => {
        try {
          nextState(s, e);
          return true;
        } catch {
          return false;
        }
      });
      expect(exits.length > 0).toBe(!TERMINAL_STATES.has(s));
    }
  });

  it('EXPIRED is reachable only before execution begins', () => {
    fc.assert(
      fc.property(fc.array(anyEvent, { maxLength: 40 }), (events) => {
        const path = walk(RecoveryState.PREPARING, events);
        const began = path.findIndex(([, s]) => s === RecoveryState.EXECUTING);
        const expired = path.findIndex(([, s]) => s === RecoveryState.EXPIRED);
        if (began >= 0) expect(expired).toBe(-1);
      }),
      RUNS,
    );
  });

  it('VERIFIED is entered only by EXECUTION_VERIFIED or a signed forward-applied resolution', () => {
    fc.assert(
      fc.property(anyState, fc.array(anyEvent, { maxLength: 40 }), (start, events) => {
        for (const [e, s] of walk(start, events)) {
          if (s === RecoveryState.VERIFIED) {
            expect([RecoveryEvent.EXECUTION_VERIFIED, RecoveryEvent.RESOLVE_FORWARD_APPLIED]).toContain(e);
          }
        }
      }),
      RUNS,
    );
  });

  it('RECONCILIATION is left only by a RESOLVE_* event', () => {
    fc.assert(
      fc.property(anyEvent, (e) => {
        let left = false;
        try {
          nextState(RecoveryState.RECONCILIATION, e);
          left = true;
        } catch (err) {
          expect(err).toBeInstanceOf(IllegalTransitionError);
        }
        expect(left).toBe(e.startsWith('RESOLVE_'));
      }),
      RUNS,
    );
  });

  it('arbitrary non-enum strings are TypeErrors, never transitions', () => {
    const known = new Set<string>([...RECOVERY_STATES, ...RECOVERY_EVENTS]);
    fc.assert(
      fc.property(
        fc.string().filter((x) => !known.has(x)),
        anyState,
        anyEvent,
        (junk, s, e) => {
          expect(() => nextState(junk as RecoveryState, e)).toThrow(TypeError);
          expect(() => nextState(s, junk as RecoveryEvent)).toThrow(TypeError);
        },
      ),
      RUNS,
    );
  });
});
