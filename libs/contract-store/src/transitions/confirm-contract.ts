import { deepFreeze } from '@pfsense-mcp/foundation';
import { RecoveryEvent, RecoveryState } from '@pfsense-mcp/state-machine';
import { auditContract } from '../audit/append-audit.js';
import { loadIn, writeContract } from '../model/contract-rows.js';
import { transition } from './contract-transition.js';
import { EvidenceMismatchError, PreconditionError } from '../store/contract-store-error.js';
import { verifiedConfirmationSchema } from '../integrity/evidence-verifiers.js';
import type { RecoveryContract } from '../model/recovery-contract.js';
import { nowOf } from '../store/store-state.js';
import type { StoreState } from '../store/store-state.js';
import { storeWrite } from '../store/store-write.js';

/** PREPARING → PREPARED (CAS on state_version). */
export function markPrepared(s: StoreState, contractId: string, expectedStateVersion: number): RecoveryContract {
  return storeWrite(s, 'markPrepared', () => {
    const c = loadIn(s, contractId);
    const now = nowOf(s);
    if (c.state === RecoveryState.PREPARING && c.expires_at <= now) {
      throw new PreconditionError('CONTRACT_EXPIRED', contractId, 'contract has expired');
    }
    return transition(s, c, expectedStateVersion, RecoveryEvent.PREPARE, {}, { outcomeClass: null }, now);
  });
}

/** Records a confirmation accepted by the injected ConfirmationVerifier (PREPARED, unexpired, once). */
export function confirm(s: StoreState, contractId: string, evidence: unknown): RecoveryContract {
  return storeWrite(s, 'confirm', () => {
    const c = loadIn(s, contractId);
    const now = nowOf(s);
    if (c.state !== RecoveryState.PREPARED)
      throw new PreconditionError('WRONG_STATE', contractId, `confirmation needs PREPARED, contract is ${c.state}`);
    if (c.confirmation !== null) throw new PreconditionError('ALREADY_CONFIRMED', contractId, 'contract is already confirmed');
    if (c.expires_at <= now) throw new PreconditionError('CONTRACT_EXPIRED', contractId, 'contract has expired');
    if (s.confirmationVerifier === undefined)
      throw new PreconditionError('VERIFIER_MISSING', contractId, 'no confirmation verifier is configured');
    const verified = verifiedConfirmationSchema.safeParse(s.confirmationVerifier.verify(c, evidence, now));
    if (!verified.success) throw new EvidenceMismatchError('verifier_result');
    const v = verified.data;
    if (v.contractId !== c.contract_id) throw new EvidenceMismatchError('contract_id');
    if (v.expiresAt <= now) throw new PreconditionError('CONFIRMATION_EXPIRED', contractId, 'confirmation has expired');
    const next = deepFreeze({
      ...c,
      confirmation: {
        confirmation_id: v.confirmationId,
        confirmation_digest: v.confirmationDigest,
        authority_key_id: v.authorityKeyId,
        confirmed_at: now,
        expires_at: Math.min(v.expiresAt, c.expires_at),
      },
      state_version: c.state_version + 1,
      updated_at: now,
    }) as RecoveryContract;
    writeContract(s, next, c);
    auditContract(s, next, 'confirmation', null, c.state, now, {
      outcomeClass: 'CONFIRMED',
      evidenceDigest: v.confirmationDigest,
      authorityKeyId: v.authorityKeyId,
    });
    return next;
  });
}
