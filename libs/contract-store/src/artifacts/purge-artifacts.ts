import { deepFreeze } from '@pfsense-mcp/foundation';
import { auditContract } from '../audit/append-audit.js';
import { verifyRow, writeContract } from '../model/contract-rows.js';
import { isPurgeable } from './is-purgeable.js';
import type { RecoveryContract } from '../model/recovery-contract.js';
import type { ContractRow } from '../store/store-statements.js';
import { nowOf } from '../store/store-state.js';
import type { StoreState } from '../store/store-state.js';
import { storeWrite } from '../store/store-write.js';

/**
 * Retention: protected artifacts of terminal contracts older than the retention period are
 * overwritten with zeros, then deleted (secure_delete zeroes the freed pages). A ROLLBACK_FAILED
 * contract keeps its snapshot until the retention period has passed since its reservation release. Audit rows stay.
 */
export function purgeExpiredArtifacts(s: StoreState): readonly string[] {
  return storeWrite(s, 'purge', () => {
    const now = nowOf(s);
    const rows = s.stmt.purgeable.all(now - s.retentionMs) as ContractRow[];
    const purged: string[] = [];
    for (const row of rows) {
      const c = verifyRow(s, row);
      if (!isPurgeable(c, now, s.retentionMs)) continue;
      s.stmt.zeroArtifacts.run(c.contract_id);
      s.stmt.deleteArtifacts.run(c.contract_id);
      const next = deepFreeze({ ...c, artifacts_purged_at: now, state_version: c.state_version + 1, updated_at: now }) as RecoveryContract;
      writeContract(s, next, c);
      auditContract(s, next, 'artifact-purge', null, c.state, now, { outcomeClass: 'ARTIFACTS_PURGED' });
      purged.push(c.contract_id);
    }
    return Object.freeze(purged);
  });
}
