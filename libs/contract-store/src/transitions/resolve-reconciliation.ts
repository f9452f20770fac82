import { RecoveryEvent, RecoveryState } from '@pfsense-mcp/state-machine';
import { loadIn } from '../model/contract-rows.js';
import { transition } from './contract-transition.js';
import type { ContractPatch } from './contract-transition.js';
import { assertReconciliationVerdict } from './assert-reconciliation-verdict.js';
import { EvidenceMismatchError, PreconditionError } from '../store/contract-store-error.js';
import { verifiedResolutionSchema } from '../integrity/evidence-verifiers.js';
import type { RecoveryContract } from '../model/recovery-contract.js';
import { nowOf } from '../store/store-state.js';
import type { StoreState } from '../store/store-state.js';
import { storeWrite } from '../store/store-write.js';

/** Leaves RECONCILIATION with a resolution accepted by the injected ReconciliationVerifier. */
export function resolveReconciliation(s: StoreState, contractId: string, signedResolution: unknown): RecoveryContract {
  return storeWrite(s, 'resolveReconciliation', () => {
    const c = loadIn(s, contractId);
    const now = nowOf(s);
    if (c.state !== RecoveryState.RECONCILIATION || c.reconciliation === null) {
      throw new PreconditionError('WRONG_STATE', contractId, `resolution needs RECONCILIATION, contract is ${c.state}`);
    }
    if (s.reconciliationVerifier === undefined)
      throw new PreconditionError('VERIFIER_MISSING', contractId, 'no reconciliation verifier is configured');
    const parsed = verifiedResolutionSchema.safeParse(s.reconciliationVerifier.verify(c, signedResolution, now));
    if (!parsed.success) throw new EvidenceMismatchError('verifier_result');
    const v = parsed.data;
    assertReconciliationVerdict(c, v);
    if (v.origin !== c.reconciliation.origin) throw new EvidenceMismatchError('origin');
    if (v.observedLifecycleLocator !== c.lifecycle_locator) throw new EvidenceMismatchError('lifecycle_locator');
    const forward = v.outcome === 'FORWARD_APPLIED' || v.outcome === 'FORWARD_NOT_APPLIED';
    if (forward !== (v.origin === 'EXECUTING')) throw new EvidenceMismatchError('outcome');
    const patch: ContractPatch = {
      owner: null,
      resolution: {
        resolution_id: v.resolutionId,
        resolution_digest: v.resolutionDigest,
        authority_key_id: v.authorityKeyId,
        outcome: v.outcome,
        resolved_at: now,
      },
    };
    let event: RecoveryEvent;
    switch (v.outcome) {
      case 'FORWARD_APPLIED':
        if (v.observedFingerprint === null) throw new EvidenceMismatchError('observed_fingerprint');
        // Forward-applied evidence seals the post-forward fingerprint and locator it signed.
        patch.verified_target_fingerprint = v.observedFingerprint;
        patch.verified_lifecycle_locator = v.observedLifecycleLocator;
        event = RecoveryEvent.RESOLVE_FORWARD_APPLIED;
        break;
      case 'FORWARD_NOT_APPLIED':
        event = RecoveryEvent.RESOLVE_FORWARD_NOT_APPLIED;
        break;
      case 'ROLLBACK_APPLIED':
        // Rollback-origin evidence never seals a forward fingerprint; it records the rollback observation.
        patch.rollback_verified_target_fingerprint = v.observedFingerprint;
        patch.rollback_verified_lifecycle_locator = v.observedLifecycleLocator;
        event = RecoveryEvent.RESOLVE_ROLLBACK_APPLIED;
        break;
      default:
        event = RecoveryEvent.RESOLVE_ROLLBACK_NOT_APPLIED;
    }
    return transition(
      s,
      c,
      c.state_version,
      event,
      patch,
      {
        outcomeClass: `RESOLVED_${v.outcome}`,
        evidenceDigest: v.resolutionDigest,
        authorityKeyId: v.authorityKeyId,
      },
      now,
    );
  });
}
