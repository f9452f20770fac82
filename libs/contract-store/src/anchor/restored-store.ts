import { RecoveryEvent } from '@pfsense-mcp/state-machine';
import { verifyRow } from '../model/contract-rows.js';
import { transition } from '../transitions/contract-transition.js';
import { PreconditionError } from '../store/contract-store-error.js';
import type { ContractRow } from '../store/store-statements.js';
import { nowOf } from '../store/store-state.js';
import type { StoreState } from '../store/store-state.js';
import { storeWrite } from '../store/store-write.js';

/**
 * A restore is accepted only while nothing is mid-flight on the appliance: an EXECUTING, ROLLING_BACK or
 * RECONCILIATION contract of the restored copy may disagree with what the appliance now holds.
 */
export function refuseRestoreWithWorkInFlight(s: StoreState): void {
  const row = s.db
    .prepare("SELECT contract_id FROM contracts WHERE state IN ('EXECUTING','ROLLING_BACK','RECONCILIATION') ORDER BY contract_id LIMIT 1")
    .get() as { contract_id: string } | undefined;
  if (row !== undefined) {
    throw new PreconditionError(
      'RESTORE_WITH_WORK_IN_FLIGHT',
      row.contract_id,
      'a restore is not accepted while a contract is EXECUTING, ROLLING_BACK or RECONCILIATION',
    );
  }
}

/**
 * After an operator re-anchored a restored backup: work prepared before the backup may have been
 * executed since, so no PREPARING/PREPARED contract of the restored copy may start — all expire
 * (audited as RESTORED_FROM_BACKUP). In-flight rows are left to reconcileInterrupted(); VERIFIED
 * rollbacks stay guarded by their sealed-fingerprint pre-read.
 */
export function expireAfterRestore(s: StoreState): void {
  storeWrite(s, 'expireAfterRestore', () => {
    const now = nowOf(s);
    for (const row of s.db
      .prepare("SELECT * FROM contracts WHERE state IN ('PREPARING','PREPARED') ORDER BY contract_id")
      .all() as ContractRow[]) {
      const c = verifyRow(s, row);
      transition(s, c, c.state_version, RecoveryEvent.EXPIRE, {}, { outcomeClass: 'RESTORED_FROM_BACKUP' }, now);
    }
  });
}
