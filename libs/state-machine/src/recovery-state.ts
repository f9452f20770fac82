import { ReadOnlySet } from '@pfsense-mcp/foundation';

/** The states of a Recovery Contract (docs/DESIGN.md §3). Values are what the store persists. */
export const RecoveryState = Object.freeze({
  PREPARING: 'PREPARING',
  PREPARED: 'PREPARED',
  EXECUTING: 'EXECUTING',
  VERIFIED: 'VERIFIED',
  ROLLING_BACK: 'ROLLING_BACK',
  ROLLED_BACK: 'ROLLED_BACK',
  FAILED: 'FAILED',
  ROLLBACK_FAILED: 'ROLLBACK_FAILED',
  RECONCILIATION: 'RECONCILIATION',
  EXPIRED: 'EXPIRED',
} as const);

export type RecoveryState = (typeof RecoveryState)[keyof typeof RecoveryState];

/** Every state, in declaration order. */
export const RECOVERY_STATES: readonly RecoveryState[] = Object.freeze(Object.values(RecoveryState));

const STATE_SET: ReadonlySet<string> = new ReadOnlySet<string>(RECOVERY_STATES);

export function isRecoveryState(value: unknown): value is RecoveryState {
  return typeof value === 'string' && STATE_SET.has(value);
}

/**
 * States no event leaves. VERIFIED is deliberately not terminal: it may still be rolled back.
 * ROLLBACK_FAILED is terminal for the state machine even though its target reservation is kept
 * (released only by a signed, audited release — §3 store rules, not a transition).
 */
export const TERMINAL_STATES: ReadonlySet<RecoveryState> = new ReadOnlySet<RecoveryState>([
  RecoveryState.FAILED,
  RecoveryState.ROLLED_BACK,
  RecoveryState.ROLLBACK_FAILED,
  RecoveryState.EXPIRED,
]);

export function isTerminal(state: RecoveryState): boolean {
  if (!isRecoveryState(state)) throw new TypeError('isTerminal: "state" must be a RecoveryState');
  return TERMINAL_STATES.has(state);
}

/** States in which the contract holds its target's reservation (docs/DESIGN.md §3 store rules). */
export const RESERVATION_HOLDING_STATES: ReadonlySet<RecoveryState> = new ReadOnlySet<RecoveryState>([
  RecoveryState.EXECUTING,
  RecoveryState.ROLLING_BACK,
  RecoveryState.RECONCILIATION,
  RecoveryState.ROLLBACK_FAILED,
]);

export function holdsReservation(state: RecoveryState): boolean {
  if (!isRecoveryState(state)) throw new TypeError('holdsReservation: "state" must be a RecoveryState');
  return RESERVATION_HOLDING_STATES.has(state);
}
