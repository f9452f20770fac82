import type { RecoveryEvent } from './recovery-event.js';
import type { RecoveryState } from './recovery-state.js';

/** The event is not allowed in the state. Carries only enum values (safe to log). */
export class IllegalTransitionError extends Error {
  readonly code = 'ILLEGAL_TRANSITION' as const;
  readonly state: RecoveryState;
  readonly event: RecoveryEvent;

  constructor(state: RecoveryState, event: RecoveryEvent) {
    super(`illegal transition: event ${event} is not allowed in state ${state}`);
    this.name = 'IllegalTransitionError';
    this.state = state;
    this.event = event;
  }
}
