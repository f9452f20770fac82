import { RecoveryEvent as E } from './recovery-event.js';
import type { RecoveryEvent } from './recovery-event.js';
import { RecoveryState as S } from './recovery-state.js';
import type { RecoveryState } from './recovery-state.js';

export interface Transition {
  readonly from: RecoveryState;
  readonly event: RecoveryEvent;
  readonly to: RecoveryState;
}

/**
 * The closed list of legal transitions (docs/DESIGN.md §3). Every pair not listed is refused.
 * EXPIRE applies only before execution begins; RECONCILIATION is left only by a RESOLVE_* event
 * (an owner-signed resolution), never automatically.
 */
export const TRANSITIONS: readonly Transition[] = Object.freeze(
  (
    [
      [S.PREPARING, E.PREPARE, S.PREPARED],
      [S.PREPARING, E.EXPIRE, S.EXPIRED],
      [S.PREPARED, E.BEGIN_EXECUTION, S.EXECUTING],
      [S.PREPARED, E.EXPIRE, S.EXPIRED],
      [S.EXECUTING, E.EXECUTION_VERIFIED, S.VERIFIED],
      [S.EXECUTING, E.EXECUTION_FAILED, S.FAILED],
      [S.EXECUTING, E.EXECUTION_AMBIGUOUS, S.RECONCILIATION],
      [S.VERIFIED, E.BEGIN_ROLLBACK, S.ROLLING_BACK],
      [S.ROLLING_BACK, E.ROLLBACK_VERIFIED, S.ROLLED_BACK],
      [S.ROLLING_BACK, E.ROLLBACK_FAILED, S.ROLLBACK_FAILED],
      [S.ROLLING_BACK, E.ROLLBACK_AMBIGUOUS, S.RECONCILIATION],
      [S.RECONCILIATION, E.RESOLVE_FORWARD_APPLIED, S.VERIFIED],
      [S.RECONCILIATION, E.RESOLVE_FORWARD_NOT_APPLIED, S.FAILED],
      [S.RECONCILIATION, E.RESOLVE_ROLLBACK_APPLIED, S.ROLLED_BACK],
      [S.RECONCILIATION, E.RESOLVE_ROLLBACK_NOT_APPLIED, S.ROLLBACK_FAILED],
    ] as const
  ).map(([from, event, to]) => Object.freeze({ from, event, to })),
);

export type TransitionTable = Readonly<Record<RecoveryState, Readonly<Partial<Record<RecoveryEvent, RecoveryState>>>>>;

function buildTable(): TransitionTable {
  // Null-prototype rows so a lookup can never hit an inherited key.
  const rows = Object.create(null) as Record<RecoveryState, Partial<Record<RecoveryEvent, RecoveryState>>>;
  for (const state of Object.values(S)) rows[state] = Object.create(null) as Partial<Record<RecoveryEvent, RecoveryState>>;
  for (const t of TRANSITIONS) rows[t.from][t.event] = t.to;
  for (const state of Object.values(S)) Object.freeze(rows[state]);
  return Object.freeze(rows);
}

/** The same transitions as a frozen state → event → next-state map (absent = refused). */
export const TRANSITION_TABLE: TransitionTable = buildTable();
