import type { RecoveryEvent } from './recovery-event.js';
import type { RecoveryState } from './recovery-state.js';
import { CodedError } from '@pfsense-mcp/foundation';

/** The event is not allowed in the state. Carries only enum values (safe to log). */
export class IllegalTransitionError extends CodedError<'ILLEGAL_TRANSITION'> {
  override readonly name = 'IllegalTransitionError';
  readonly state: RecoveryState;
  readonly event: RecoveryEvent;

  constructor(state: RecoveryState, event: RecoveryEvent) {
    super('ILLEGAL_TRANSITION', `illegal transition: event ${event} is not allowed in state ${state}`);
    this.state = state;
    this.event = event;
  }
}
