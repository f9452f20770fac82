import { RecoveryEvent } from '@pfsense-mcp/state-machine';
import { verifyRow } from '../model/contract-rows.js';
import { transition } from './contract-transition.js';
import { isOwnerAlive } from '../store/process-owner.js';
import type { ContractRow } from '../store/store-statements.js';
import { nowOf } from '../store/store-state.js';
import type { StoreState } from '../store/store-state.js';
import { storeWrite } from '../store/store-write.js';

/** Result of `reconcileInterrupted()`: which in-flight contracts were moved to RECONCILIATION. */
export interface ReconciledContract {
  readonly contract_id: string;
  readonly from_state: 'EXECUTING' | 'ROLLING_BACK';
}

/**
 * Moves EXECUTING/ROLLING_BACK contracts whose owner process is dead (no such pid, another start
 * time, or another boot) to RECONCILIATION. A live owner's contract — this process or another — is
 * left alone. No network call; nothing is retried.
 */
export function reconcileInterrupted(s: StoreState): readonly ReconciledContract[] {
  return storeWrite(s, 'reconcileInterrupted', () => {
    const now = nowOf(s);
    const moved: ReconciledContract[] = [];
    for (const row of s.stmt.inFlight.all() as ContractRow[]) {
      const c = verifyRow(s, row);
      if (c.owner !== null && isOwnerAlive(c.owner)) continue;
      const origin = c.state as 'EXECUTING' | 'ROLLING_BACK';
      const event = origin === 'EXECUTING' ? RecoveryEvent.EXECUTION_AMBIGUOUS : RecoveryEvent.ROLLBACK_AMBIGUOUS;
      transition(
        s,
        c,
        c.state_version,
        event,
        {
          owner: null,
          reconciliation: { origin, entered_at: now, outcome_class: 'INTERRUPTED' },
        },
        { outcomeClass: 'INTERRUPTED' },
        now,
      );
      moved.push(Object.freeze({ contract_id: c.contract_id, from_state: origin }));
    }
    return Object.freeze(moved);
  });
}
