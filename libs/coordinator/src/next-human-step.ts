import { CLOSED_STATUSES, OperationStatus } from './operation-outcome.js';
import { PendingRequestKind } from './pending-request.js';
import type { PendingRequest } from './pending-request.js';

/**
 * What a human does next about an operation (docs/DESIGN.md §6), value-free. Decided here once; each surface
 * (the write tool, the operations view, `admin status`) puts it in its own words.
 */
export const HumanStep = Object.freeze({
  SIGN_AUTHORIZATION: 'sign-authorization',
  SIGN_CONFIRMATION: 'sign-confirmation',
  SIGN_RECONCILIATION: 'sign-reconciliation',
  SIGN_RELEASE: 'sign-release',
  /** A verified change whose rollback is itself a firewall change: the operator signs the rollback request. */
  SIGN_ROLLBACK: 'sign-rollback',
  /** Nothing to sign now: ask again with the same arguments. */
  ASK_AGAIN: 'ask-again',
  /** In flight or being settled, and no request to sign yet (`admin reconcile emit` writes a missing one). */
  SETTLING: 'settling',
  /** Verified: nothing to do. */
  NOTHING: 'nothing',
  /** Closed without effect: asking again starts a new attempt. */
  CLOSED: 'closed',
  /** Closed: applied, verified, then rolled back by the operator; asking again starts a new attempt. */
  ROLLED_BACK: 'rolled-back',
} as const);
export type HumanStep = (typeof HumanStep)[keyof typeof HumanStep];

const SIGN: Readonly<Record<PendingRequestKind, HumanStep>> = Object.freeze({
  [PendingRequestKind.AUTHORIZATION]: HumanStep.SIGN_AUTHORIZATION,
  [PendingRequestKind.CONFIRMATION]: HumanStep.SIGN_CONFIRMATION,
  [PendingRequestKind.RECONCILIATION]: HumanStep.SIGN_RECONCILIATION,
  [PendingRequestKind.RELEASE]: HumanStep.SIGN_RELEASE,
  [PendingRequestKind.ROLLBACK]: HumanStep.SIGN_ROLLBACK,
});

/** The step of each status when no request is pending — the one row a new status adds. */
const WITHOUT_REQUEST: Readonly<Record<OperationStatus, HumanStep>> = Object.freeze({
  [OperationStatus.REQUESTED]: HumanStep.SIGN_AUTHORIZATION,
  [OperationStatus.AWAITING_CONFIRMATION]: HumanStep.ASK_AGAIN,
  [OperationStatus.VERIFIED]: HumanStep.NOTHING,
  [OperationStatus.RECONCILIATION_REQUIRED]: HumanStep.SETTLING,
  [OperationStatus.ROLLED_BACK]: HumanStep.ROLLED_BACK,
  [OperationStatus.REFUSED]: HumanStep.CLOSED,
});

/**
 * The next human step: sign the pending request when there is one, else what the status asks for. A closed
 * status (CLOSED_STATUSES) is its own step whatever is passed: nothing of a closed attempt is signed.
 */
export function nextHumanStep(status: OperationStatus, pending: PendingRequest | null): HumanStep {
  if (!CLOSED_STATUSES.has(status) && pending !== null) return SIGN[pending.kind];
  return WITHOUT_REQUEST[status];
}
