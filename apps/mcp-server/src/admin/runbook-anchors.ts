import type { RecoveryContract } from '@pfsense-mcp/contract-store';
import { RecoveryState } from '@pfsense-mcp/state-machine';
import { installedDoc } from './installed-docs.js';

/** The operator's runbook: the absolute path of the copy the package ships beside this program (installed-docs.ts). */
export const RUNBOOK = installedDoc('OPERATIONS.md');

/** Every section of the runbook `admin status` may point to; each exists in docs/OPERATIONS.md (a test checks it). */
export const RUNBOOK_ANCHORS = Object.freeze({
  awaitingSignatures: 'awaiting-signatures',
  inFlight: 'in-flight',
  verified: 'verified',
  reconciliationForward: 'reconciliation-forward',
  reconciliationRollback: 'reconciliation-rollback',
  rollbackFailed: 'rollback-failed',
  closed: 'closed',
  expired: 'expired',
  refusedKeepsComingBack: 'refused-keeps-coming-back',
  anchorAtStart: 'anchor-behind-diverged-ahead',
  retention: 'retention',
  clockBehind: 'clock-behind',
} as const);
export type RunbookAnchor = (typeof RUNBOOK_ANCHORS)[keyof typeof RUNBOOK_ANCHORS];

/** "see /…/docs/OPERATIONS.md#anchor". */
export function seeRunbook(anchor: RunbookAnchor): string {
  return `see ${RUNBOOK}#${anchor}`;
}

/** The runbook section for a contract's state (RECONCILIATION by where it came from). */
export function runbookAnchorOf(c: RecoveryContract): RunbookAnchor {
  switch (c.state) {
    case RecoveryState.PREPARING:
    case RecoveryState.PREPARED:
      return RUNBOOK_ANCHORS.awaitingSignatures;
    case RecoveryState.EXECUTING:
    case RecoveryState.ROLLING_BACK:
      return RUNBOOK_ANCHORS.inFlight;
    case RecoveryState.VERIFIED:
      return RUNBOOK_ANCHORS.verified;
    case RecoveryState.RECONCILIATION:
      return c.reconciliation?.origin === 'ROLLING_BACK' ? RUNBOOK_ANCHORS.reconciliationRollback : RUNBOOK_ANCHORS.reconciliationForward;
    case RecoveryState.ROLLBACK_FAILED:
      return RUNBOOK_ANCHORS.rollbackFailed;
    case RecoveryState.EXPIRED:
      return RUNBOOK_ANCHORS.expired;
    default:
      return RUNBOOK_ANCHORS.closed;
  }
}
