import { RecoveryEvent } from '@pfsense-mcp/state-machine';
import type { ConfigHistoryRecord } from '../model/config-history-record.js';
import { PreconditionError } from '../store/contract-store-error.js';
import { beginInFlight, endInFlight, markVerified } from './in-flight-transitions.js';
import type { RecoveryContract } from '../model/recovery-contract.js';
import type { StoreState } from '../store/store-state.js';
import type { VerifiedSeal } from '../integrity/verified-seal.js';

/**
 * PREPARED → EXECUTING: anchor check, confirmed and unexpired, in-flight rate checkpoint, target
 * reservation acquired (refused if held), owner record written — one transaction.
 */
export function beginExecution(s: StoreState, contractId: string, expectedStateVersion: number): RecoveryContract {
  return beginInFlight(s, 'beginExecution', contractId, expectedStateVersion, RecoveryEvent.BEGIN_EXECUTION, (c, now) => {
    if (c.confirmation === null) throw new PreconditionError('NOT_CONFIRMED', contractId, 'contract is not confirmed');
    if (c.expires_at <= now) throw new PreconditionError('CONTRACT_EXPIRED', contractId, 'contract has expired');
    if (c.confirmation.expires_at <= now) throw new PreconditionError('CONFIRMATION_EXPIRED', contractId, 'confirmation has expired');
  });
}

/** EXECUTING → VERIFIED, sealing the post-forward fingerprint and locator atomically; releases the reservation. */
export function markExecutionVerified(
  s: StoreState,
  contractId: string,
  expectedStateVersion: number,
  seal: VerifiedSeal,
  configHistory?: ConfigHistoryRecord,
): RecoveryContract {
  return markVerified(
    s,
    'markExecutionVerified',
    contractId,
    expectedStateVersion,
    seal,
    RecoveryEvent.EXECUTION_VERIFIED,
    {
      fingerprint: 'verified_target_fingerprint',
      locator: 'verified_lifecycle_locator',
    },
    configHistory,
  );
}

/** EXECUTING → FAILED (proven no effect or verified failure); releases the reservation. */
export function markExecutionFailed(
  s: StoreState,
  contractId: string,
  expectedStateVersion: number,
  outcomeClass: string,
  configHistory?: ConfigHistoryRecord,
): RecoveryContract {
  return endInFlight(
    s,
    'markExecutionFailed',
    contractId,
    expectedStateVersion,
    RecoveryEvent.EXECUTION_FAILED,
    outcomeClass,
    null,
    configHistory,
  );
}

/** EXECUTING → RECONCILIATION (outcome not provable); the reservation stays held. */
export function markExecutionAmbiguous(
  s: StoreState,
  contractId: string,
  expectedStateVersion: number,
  outcomeClass: string,
  configHistory?: ConfigHistoryRecord,
): RecoveryContract {
  return endInFlight(
    s,
    'markExecutionAmbiguous',
    contractId,
    expectedStateVersion,
    RecoveryEvent.EXECUTION_AMBIGUOUS,
    outcomeClass,
    'EXECUTING',
    configHistory,
  );
}
