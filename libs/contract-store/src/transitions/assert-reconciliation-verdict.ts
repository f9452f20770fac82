import { EvidenceMismatchError, StaleStateVersionError } from '../store/contract-store-error.js';
import type { RecoveryContract } from '../model/recovery-contract.js';

/** What a reconciliation-role verdict (a resolution or a reservation release) says it is about. */
export interface ReconciliationVerdictSubject {
  readonly authorityRole: string;
  readonly contractId: string;
  readonly operationId: string;
  readonly stateVersion: number;
}

/**
 * Refuses a verifier's verdict unless it was signed by the reconciliation role for exactly `c` — its contract,
 * its operation and its current state_version (a verdict about an older state is stale, not merely mismatched).
 */
export function assertReconciliationVerdict(c: RecoveryContract, v: ReconciliationVerdictSubject): void {
  if (v.authorityRole !== 'reconciliation') throw new EvidenceMismatchError('authority_role');
  if (v.contractId !== c.contract_id) throw new EvidenceMismatchError('contract_id');
  if (v.operationId !== c.operation_id) throw new EvidenceMismatchError('operation_id');
  if (v.stateVersion !== c.state_version) throw new StaleStateVersionError(c.contract_id, v.stateVersion, c.state_version);
}
