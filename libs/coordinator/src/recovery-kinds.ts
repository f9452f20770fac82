import { ArtifactKind } from '@pfsense-mcp/authorization';
import type { RecoveryContract } from '@pfsense-mcp/contract-store';
import { needsSignedRollback } from '@pfsense-mcp/policy';
import { RecoveryState } from '@pfsense-mcp/state-machine';
import { reconciliationRequestName, releaseRequestName, rollbackRequestName } from './pending-request-names.js';
import { RefusalGate } from './refusal-audit.js';

/** The operator's recovery commands that resolve a contract with signed evidence (`admin reconcile …`, `admin release …`). */
export type RecoveryKind = 'reconciliation' | 'release';

/** Every request the operator's commands write for an existing contract: the recovery kinds and a signed rollback's. */
export type OperatorRequestKind = RecoveryKind | 'rollback';

/** What tells the operator's request kinds apart: the state awaited, the refusal gate, the evidence and the request name. */
export const RECOVERY_KINDS = Object.freeze({
  reconciliation: Object.freeze({
    awaits: (c: RecoveryContract): boolean => c.state === RecoveryState.RECONCILIATION && c.reconciliation !== null,
    gate: RefusalGate.RECONCILIATION,
    evidence: ArtifactKind.RECONCILIATION,
    requestName: reconciliationRequestName,
  }),
  release: Object.freeze({
    awaits: (c: RecoveryContract): boolean => c.state === RecoveryState.ROLLBACK_FAILED && c.reservation_release === null,
    gate: RefusalGate.RELEASE,
    evidence: ArtifactKind.RELEASE,
    requestName: releaseRequestName,
  }),
  // A VERIFIED contract whose rollback is itself a firewall change waits for the operator's rollback authorization.
  rollback: Object.freeze({
    awaits: (c: RecoveryContract): boolean =>
      c.state === RecoveryState.VERIFIED && needsSignedRollback(c.capability) && c.verified_target_fingerprint !== null,
    gate: RefusalGate.ROLLBACK,
    evidence: ArtifactKind.ROLLBACK_AUTHORIZATION,
    requestName: rollbackRequestName,
  }),
});
