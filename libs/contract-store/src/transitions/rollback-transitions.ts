import { isHex64, isSafeToken } from '@pfsense-mcp/canonical';
import { assertFunction, assertObject } from '@pfsense-mcp/foundation';
import { needsSignedRollback } from '@pfsense-mcp/policy';
import { RecoveryEvent } from '@pfsense-mcp/state-machine';
import { PreconditionError } from '../store/contract-store-error.js';
import type { ConfigHistoryRecord } from '../model/config-history-record.js';
import { beginInFlight, endInFlight, markVerified } from './in-flight-transitions.js';
import type { RecoveryContract } from '../model/recovery-contract.js';
import type { StoreState } from '../store/store-state.js';
import type { VerifiedSeal } from '../integrity/verified-seal.js';

/** The operator's verified rollback authorization a signed rollback begins under (docs/DESIGN.md §5). */
export interface RollbackAuthorizationUse {
  readonly rollbackAuthorizationId: string;
  readonly authorizationDigest: string;
  readonly authorityKeyId: string;
  /**
   * Called with the authorization id inside the transition's transaction, after every check that can refuse;
   * it must return true (consumed now) or the rollback is refused (AUTHORIZATION_CONSUMED). An error it throws
   * rolls the transition back and propagates unchanged.
   */
  readonly consume: (rollbackAuthorizationId: string) => boolean;
}

/**
 * VERIFIED → ROLLING_BACK: anchor check, re-acquires the reservation (refused if held by other work). A
 * contract whose capability needs a signed rollback (policy's needsSignedRollback) begins only under a verified
 * authorization, consumed once inside this transition and named by digest in its audit row; any other contract
 * takes none.
 */
export function beginRollback(
  s: StoreState,
  contractId: string,
  expectedStateVersion: number,
  authorization?: RollbackAuthorizationUse,
): RecoveryContract {
  if (authorization !== undefined) {
    assertObject(authorization, 'beginRollback: "authorization"');
    assertFunction(authorization.consume as unknown, 'beginRollback: "authorization.consume"');
    if (
      !isSafeToken(authorization.rollbackAuthorizationId) ||
      !isHex64(authorization.authorizationDigest) ||
      !isHex64(authorization.authorityKeyId)
    )
      throw new TypeError('beginRollback: "authorization" must carry a safe-token id and two 64-hex digests');
  }
  return beginInFlight(
    s,
    'beginRollback',
    contractId,
    expectedStateVersion,
    RecoveryEvent.BEGIN_ROLLBACK,
    (c) => {
      const signed = needsSignedRollback(c.capability);
      if (signed && authorization === undefined)
        throw new PreconditionError('ROLLBACK_AUTHORIZATION_REQUIRED', contractId, 'this rollback needs a signed rollback authorization');
      if (!signed && authorization !== undefined)
        throw new PreconditionError('ROLLBACK_AUTHORIZATION_REQUIRED', contractId, 'this rollback takes no rollback authorization');
    },
    authorization === undefined
      ? undefined
      : () => {
          if (authorization.consume(authorization.rollbackAuthorizationId) !== true)
            throw new PreconditionError('AUTHORIZATION_CONSUMED', contractId, 'the rollback authorization was already consumed');
          return { evidenceDigest: authorization.authorizationDigest, authorityKeyId: authorization.authorityKeyId };
        },
  );
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
