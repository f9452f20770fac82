import { IllegalTransitionError } from './illegal-transition-error.js';
import { isRecoveryEvent } from './recovery-event.js';
import type { RecoveryEvent } from './recovery-event.js';
import { isRecoveryState } from './recovery-state.js';
import type { RecoveryState } from './recovery-state.js';
import { TRANSITION_TABLE } from './transition-table.js';

/**
 * The only way a state changes: returns the next state, or throws IllegalTransitionError.
 * Unknown arguments are a programming error (TypeError naming the argument), not a refusal.
 */
export function nextState(state: RecoveryState, event: RecoveryEvent): RecoveryState {
  if (!isRecoveryState(state)) throw new TypeError('nextState: "state" must be a RecoveryState');
  if (!isRecoveryEvent(event)) throw new TypeError('nextState: "event" must be a RecoveryEvent');
  const to = TRANSITION_TABLE[state][event];
  if (to === undefined) throw new IllegalTransitionError(state, event);
  return to;
}

/** True when `event` is legal in `state` (same argument validation as nextState). */
export function canTransition(state: RecoveryState, event: RecoveryEvent): boolean {
  if (!isRecoveryState(state)) throw new TypeError('canTransition: "state" must be a RecoveryState');
  if (!isRecoveryEvent(event)) throw new TypeError('canTransition: "event" must be a RecoveryEvent');
  return TRANSITION_TABLE[state][event] !== undefined;
}
