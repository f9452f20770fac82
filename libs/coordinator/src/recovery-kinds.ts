import { ArtifactKind } from '@pfsense-mcp/authorization';
import type { RecoveryContract } from '@pfsense-mcp/contract-store';
import { RecoveryState } from '@pfsense-mcp/state-machine';
import { reconciliationRequestName, releaseRequestName } from './pending-request-names.js';
import { RefusalGate } from './refusal-audit.js';

/** The operator's recovery commands (`admin reconcile …`, `admin release …`). */
export type RecoveryKind = 'reconciliation' | 'release';

/** What tells the two recovery kinds apart: the state awaited, the refusal gate, the evidence and the request name. */
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
});
