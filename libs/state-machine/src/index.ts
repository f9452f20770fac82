// Public API of state-machine: explicit named exports only.
export {
  RecoveryState,
  RECOVERY_STATES,
  isRecoveryState,
  TERMINAL_STATES,
  isTerminal,
  RESERVATION_HOLDING_STATES,
  holdsReservation,
} from './recovery-state.js';
export { RecoveryEvent, RECOVERY_EVENTS, isRecoveryEvent } from './recovery-event.js';
export { IllegalTransitionError } from './illegal-transition-error.js';
export { TRANSITIONS, TRANSITION_TABLE } from './transition-table.js';
export type { Transition, TransitionTable } from './transition-table.js';
export { nextState, canTransition } from './next-state.js';
