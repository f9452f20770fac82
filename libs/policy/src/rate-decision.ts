import type { RateWindowState } from './rate-window-state.js';

/** Why the rate policy refused. Value-free: never a target, an intent or a count. */
export const RateRefusalReason = Object.freeze({
  /** The injected clock is behind the latest accepted reading: fail closed rather than reopen windows. */
  CLOCK_REGRESSION: 'CLOCK_REGRESSION',
  /** RECONCILIATION contracts ≥ threshold: every PREPARE is refused, all capabilities. */
  RECONCILIATION_LOCKOUT: 'RECONCILIATION_LOCKOUT',
  TARGET_OUTSTANDING_PREPARED: 'TARGET_OUTSTANDING_PREPARED',
  TARGET_COOLDOWN: 'TARGET_COOLDOWN',
  TARGET_RATE: 'TARGET_RATE',
  CAPABILITY_RATE: 'CAPABILITY_RATE',
  GLOBAL_IN_FLIGHT: 'GLOBAL_IN_FLIGHT',
  CAPABILITY_IN_FLIGHT: 'CAPABILITY_IN_FLIGHT',
  /** The persisted window state is full (a bound against unbounded growth); fail closed. */
  STATE_CAPACITY: 'STATE_CAPACITY',
} as const);

export type RateRefusalReason = (typeof RateRefusalReason)[keyof typeof RateRefusalReason];

/**
 * A rate decision. On refusal `nextState` is the input state itself (a refusal records nothing, so it
 * neither extends anyone's window nor needs a write); on admission it is the new state to persist in the
 * same transaction as the state change it gates.
 */
export type RateDecision =
  | { readonly allowed: true; readonly reason: null; readonly nextState: RateWindowState }
  | {
      readonly allowed: false;
      readonly reason: RateRefusalReason;
      readonly nextState: RateWindowState;
      /** TARGET_COOLDOWN only: when the cooldown ends (UTC ms) — waiting is all the same PREPARE needs. */
      readonly retryAtMs?: number;
    };
