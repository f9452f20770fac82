import { deepFreeze } from '@pfsense-mcp/foundation';
import { RecoveryState } from '@pfsense-mcp/state-machine';
import { auditContract } from '../audit/append-audit.js';
import { loadIn, writeContract } from '../model/contract-rows.js';
import { assertReconciliationVerdict } from './assert-reconciliation-verdict.js';
import { EvidenceMismatchError, PreconditionError } from '../store/contract-store-error.js';
import { verifiedReleaseSchema } from '../integrity/evidence-verifiers.js';
import type { RecoveryContract } from '../model/recovery-contract.js';
import { nowOf } from '../store/store-state.js';
import type { StoreState } from '../store/store-state.js';
import { storeWrite } from '../store/store-write.js';
import { reservationOf } from './target-reservations.js';

/** Clears a ROLLBACK_FAILED contract's target reservation, only with a release from the reconciliation role accepted by the injected verifier. */
export function releaseRollbackFailedReservation(s: StoreState, contractId: string, signedRelease: unknown): RecoveryContract {
  return storeWrite(s, 'releaseReservation', () => {
    const c = loadIn(s, contractId);
    const now = nowOf(s);
    if (c.state !== RecoveryState.ROLLBACK_FAILED)
      throw new PreconditionError('WRONG_STATE', contractId, `release needs ROLLBACK_FAILED, contract is ${c.state}`);
    const held = reservationOf(s, c.target_identity_digest);
    if (held === null || held.contract_id !== contractId || c.reservation_release !== null) {
      throw new PreconditionError('NOT_HOLDING_RESERVATION', contractId, 'contract does not hold its target reservation');
    }
    if (s.releaseVerifier === undefined)
      throw new PreconditionError('VERIFIER_MISSING', contractId, 'no reservation release verifier is configured');
    const parsed = verifiedReleaseSchema.safeParse(s.releaseVerifier.verify(c, signedRelease, now));
    if (!parsed.success) throw new EvidenceMismatchError('verifier_result');
    const v = parsed.data;
    assertReconciliationVerdict(c, v);
    s.stmt.deleteReservation.run(c.target_identity_digest, contractId);
    const next = deepFreeze({
      ...c,
      reservation_release: {
        release_id: v.releaseId,
        release_digest: v.releaseDigest,
        authority_key_id: v.authorityKeyId,
        released_at: now,
      },
      state_version: c.state_version + 1,
      updated_at: now,
    }) as RecoveryContract;
    writeContract(s, next, c);
    auditContract(s, next, 'reservation-release', null, c.state, now, {
      outcomeClass: 'RESERVATION_RELEASED',
      evidenceDigest: v.releaseDigest,
      authorityKeyId: v.authorityKeyId,
    });
    return next;
  });
}
