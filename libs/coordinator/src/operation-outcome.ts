import { ReadOnlySet } from '@pfsense-mcp/foundation';
import type { RecoveryContract } from '@pfsense-mcp/contract-store';
import { RecoveryState } from '@pfsense-mcp/state-machine';
import type { RecoveryState as RecoveryStateType } from '@pfsense-mcp/state-machine';

/** The six product-visible states of an asynchronous write operation (docs/DESIGN.md §6). */
export const OperationStatus = Object.freeze({
  REQUESTED: 'requested',
  AWAITING_CONFIRMATION: 'awaiting_confirmation',
  VERIFIED: 'verified',
  RECONCILIATION_REQUIRED: 'reconciliation_required',
  /** Applied, verified, then undone by a verified rollback: the old value is back. Closed. */
  ROLLED_BACK: 'rolled_back',
  REFUSED: 'refused',
} as const);
export type OperationStatus = (typeof OperationStatus)[keyof typeof OperationStatus];

/**
 * Every contract state → one of the six. Only VERIFIED is `verified`; every state in which the target's
 * condition is not known to the store (in flight, ambiguous, a failed rollback still holding its
 * reservation) is `reconciliation_required`; ROLLED_BACK is `rolled_back` (it had an effect, undone — never
 * reported as a refusal); states that ended without effect are `refused` for that contract. Asking again
 * after either closed status starts a new attempt — see OperationDriver.
 */
export const STATUS_OF_STATE: Readonly<Record<RecoveryStateType, OperationStatus>> = Object.freeze({
  [RecoveryState.PREPARING]: OperationStatus.AWAITING_CONFIRMATION,
  [RecoveryState.PREPARED]: OperationStatus.AWAITING_CONFIRMATION,
  [RecoveryState.EXECUTING]: OperationStatus.RECONCILIATION_REQUIRED,
  [RecoveryState.VERIFIED]: OperationStatus.VERIFIED,
  [RecoveryState.ROLLING_BACK]: OperationStatus.RECONCILIATION_REQUIRED,
  [RecoveryState.ROLLED_BACK]: OperationStatus.ROLLED_BACK,
  [RecoveryState.FAILED]: OperationStatus.REFUSED,
  [RecoveryState.ROLLBACK_FAILED]: OperationStatus.RECONCILIATION_REQUIRED,
  [RecoveryState.RECONCILIATION]: OperationStatus.RECONCILIATION_REQUIRED,
  [RecoveryState.EXPIRED]: OperationStatus.REFUSED,
} satisfies Record<RecoveryStateType, OperationStatus>);

/**
 * The status of one authenticated contract (it must come from store.load/list, which check its MAC).
 * A ROLLBACK_FAILED contract whose reservation was released by a signed release is closed: `refused`.
 * Anything unrecognised is `reconciliation_required`, never success.
 */
export function statusOfContract(contract: RecoveryContract): OperationStatus {
  if (contract.state === RecoveryState.ROLLBACK_FAILED && contract.reservation_release !== null) return OperationStatus.REFUSED;
  const status = (STATUS_OF_STATE as Readonly<Record<string, OperationStatus>>)[contract.state];
  return status ?? OperationStatus.RECONCILIATION_REQUIRED;
}

/** The closed statuses: the operation's latest contract ended with no open question. */
export const CLOSED_STATUSES: ReadonlySet<OperationStatus> = new ReadOnlySet<OperationStatus>([
  OperationStatus.REFUSED,
  OperationStatus.ROLLED_BACK,
]);

/** Whether a contract has ended without an open question (a closed status): a new attempt of its operation may start. */
export function isClosed(contract: RecoveryContract): boolean {
  return CLOSED_STATUSES.has(statusOfContract(contract));
}
