import { describe, expect, it } from 'vitest';
import {
  RESERVATION_HOLDING_STATES,
  RecoveryEvent,
  RecoveryState,
  TERMINAL_STATES,
  TRANSITIONS,
  TRANSITION_TABLE,
  canTransition,
  holdsReservation,
  isRecoveryEvent,
  isRecoveryState,
  isTerminal,
  nextState,
} from '../src/index.js';

describe('terminal and reservation-holding states', () => {
  it('terminal states are exactly FAILED, ROLLED_BACK, ROLLBACK_FAILED, EXPIRED', () => {
    expect([...TERMINAL_STATES].sort()).toEqual(['EXPIRED', 'FAILED', 'ROLLBACK_FAILED', 'ROLLED_BACK']);
    expect(isTerminal(RecoveryState.VERIFIED)).toBe(false);
    expect(isTerminal(RecoveryState.RECONCILIATION)).toBe(false);
    expect(isTerminal(RecoveryState.EXPIRED)).toBe(true);
  });

  it('reservation is held in EXECUTING, ROLLING_BACK, RECONCILIATION, ROLLBACK_FAILED', () => {
    expect([...RESERVATION_HOLDING_STATES].sort()).toEqual(['EXECUTING', 'RECONCILIATION', 'ROLLBACK_FAILED', 'ROLLING_BACK']);
    expect(holdsReservation(RecoveryState.EXECUTING)).toBe(true);
    expect(holdsReservation(RecoveryState.PREPARED)).toBe(false);
    expect(holdsReservation(RecoveryState.VERIFIED)).toBe(false);
  });
});

describe('immutability', () => {
  it('enums, tables and sets cannot be changed at runtime', () => {
    expect(Object.isFrozen(RecoveryState)).toBe(true);
    expect(Object.isFrozen(RecoveryEvent)).toBe(true);
    expect(Object.isFrozen(TRANSITIONS)).toBe(true);
    expect(TRANSITIONS.every((t) => Object.isFrozen(t))).toBe(true);
    expect(Object.isFrozen(TRANSITION_TABLE)).toBe(true);
    expect(Object.values(TRANSITION_TABLE).every((row) => Object.isFrozen(row))).toBe(true);
    expect(() => (TERMINAL_STATES as Set<RecoveryState>).add(RecoveryState.VERIFIED)).toThrow(TypeError);
    expect(() => (TERMINAL_STATES as Set<RecoveryState>).delete(RecoveryState.EXPIRED)).toThrow(TypeError);
    expect(() => (RESERVATION_HOLDING_STATES as Set<RecoveryState>).clear()).toThrow(TypeError);
    expect(TERMINAL_STATES.size).toBe(4);
    expect(RESERVATION_HOLDING_STATES.size).toBe(4);
    expect(() => {
      (TRANSITION_TABLE.EXPIRED as Record<string, string>)['PREPARE'] = 'PREPARED';
    }).toThrow(TypeError);
    expect(() => nextState(RecoveryState.EXPIRED, RecoveryEvent.PREPARE)).toThrow();
  });
});

describe('argument validation', () => {
  const badValues: unknown[] = [undefined, null, 1, '', 'prepared', 'toString', '__proto__', 'constructor', {}, ['PREPARED']];

  it.each(badValues.map((v) => [v]))('nextState rejects state %o with a TypeError naming "state"', (v) => {
    expect(() => nextState(v as RecoveryState, RecoveryEvent.PREPARE)).toThrow(TypeError);
    expect(() => nextState(v as RecoveryState, RecoveryEvent.PREPARE)).toThrow(/"state"/);
  });

  it.each(badValues.map((v) => [v]))('nextState rejects event %o with a TypeError naming "event"', (v) => {
    expect(() => nextState(RecoveryState.PREPARING, v as RecoveryEvent)).toThrow(TypeError);
    expect(() => nextState(RecoveryState.PREPARING, v as RecoveryEvent)).toThrow(/"event"/);
  });

  it('the other functions validate too', () => {
    expect(() => canTransition('X' as RecoveryState, RecoveryEvent.PREPARE)).toThrow(/"state"/);
    expect(() => canTransition(RecoveryState.PREPARING, 'X' as RecoveryEvent)).toThrow(/"event"/);
    expect(() => isTerminal('X' as RecoveryState)).toThrow(/"state"/);
    expect(() => holdsReservation('X' as RecoveryState)).toThrow(/"state"/);
  });

  it('guards accept exactly the enum values', () => {
    expect(isRecoveryState('PREPARED')).toBe(true);
    expect(isRecoveryState('PREPARE')).toBe(false);
    expect(isRecoveryState('hasOwnProperty')).toBe(false);
    expect(isRecoveryEvent('PREPARE')).toBe(true);
    expect(isRecoveryEvent('PREPARED')).toBe(false);
    expect(isRecoveryEvent(Symbol('PREPARE'))).toBe(false);
  });
});
