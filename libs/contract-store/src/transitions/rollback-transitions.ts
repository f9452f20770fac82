import { RecoveryEvent } from '@pfsense-mcp/state-machine';
import type { ConfigHistoryRecord } from '../model/config-history-record.js';
import { beginInFlight, endInFlight, markVerified } from './in-flight-transitions.js';
import type { RecoveryContract } from '../model/recovery-contract.js';
import type { StoreState } from '../store/store-state.js';
import type { VerifiedSeal } from '../integrity/verified-seal.js';

/** VERIFIED → ROLLING_BACK: anchor check, re-acquires the reservation (refused if held by other work). */
export function beginRollback(s: StoreState, contractId: string, expectedStateVersion: number): RecoveryContract {
  return beginInFlight(s, 'beginRollback', contractId, expectedStateVersion, RecoveryEvent.BEGIN_ROLLBACK, () => undefined);
}

/** ROLLING_BACK → ROLLED_BACK, sealing the post-rollback fingerprint and locator; releases the reservation. */
export function markRollbackVerified(
  s: StoreState,
  contractId: string,
  expectedStateVersion: number,
  seal: VerifiedSeal,
  configHistory?: ConfigHistoryRecord,
): RecoveryContract {
  return markVerified(
    s,
    'markRollbackVerified',
    contractId,
    expectedStateVersion,
    seal,
    RecoveryEvent.ROLLBACK_VERIFIED,
    {
      fingerprint: 'rollback_verified_target_fingerprint',
      locator: 'rollback_verified_lifecycle_locator',
    },
    configHistory,
  );
}

/** ROLLING_BACK → ROLLBACK_FAILED; the reservation stays held until a signed release. */
export function markRollbackFailed(
  s: StoreState,
  contractId: string,
  expectedStateVersion: number,
  outcomeClass: string,
  configHistory?: ConfigHistoryRecord,
): RecoveryContract {
  return endInFlight(
    s,
    'markRollbackFailed',
    contractId,
    expectedStateVersion,
    RecoveryEvent.ROLLBACK_FAILED,
    outcomeClass,
    null,
    configHistory,
  );
}

/** ROLLING_BACK → RECONCILIATION; the reservation stays held. */
export function markRollbackAmbiguous(
  s: StoreState,
  contractId: string,
  expectedStateVersion: number,
  outcomeClass: string,
  configHistory?: ConfigHistoryRecord,
): RecoveryContract {
  return endInFlight(
    s,
    'markRollbackAmbiguous',
    contractId,
    expectedStateVersion,
    RecoveryEvent.ROLLBACK_AMBIGUOUS,
    outcomeClass,
    'ROLLING_BACK',
    configHistory,
  );
}
