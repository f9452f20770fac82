import {
  validateArtifactDocument,
  verifyConfirmationEvidence,
  verifyReconciliationEvidence,
  verifyReservationRelease,
} from '@pfsense-mcp/authorization';
import type {
  ConfirmationVerifier,
  ReconciliationVerifier,
  RecoveryContract,
  ReservationReleaseVerifier,
} from '@pfsense-mcp/contract-store';
import { PinnedAuthoritySet } from '@pfsense-mcp/crypto';
import { assertObject } from '@pfsense-mcp/foundation';

export interface StoreEvidenceVerifiers {
  readonly confirmationVerifier: ConfirmationVerifier;
  readonly reconciliationVerifier: ReconciliationVerifier;
  readonly reservationReleaseVerifier: ReservationReleaseVerifier;
}

/**
 * The store's injected evidence verifiers, built on the authorization library's pure checks against the
 * pinned operator authorities: kind → algorithm + signature in the kind's role → currentness (the store's
 * clock) → binding to the stored contract. The expected facts come from the authenticated contract, never
 * from the evidence. The composition root passes these to SqliteRecoveryContractStore.open.
 */
export function createStoreEvidenceVerifiers(options: { readonly authorities: PinnedAuthoritySet }): StoreEvidenceVerifiers {
  assertObject(options, 'createStoreEvidenceVerifiers: "options"');
  if (!(options.authorities instanceof PinnedAuthoritySet))
    throw new TypeError('createStoreEvidenceVerifiers: "authorities" must be a PinnedAuthoritySet');
  const authorities = options.authorities;
  return Object.freeze({
    confirmationVerifier: Object.freeze({
      verify: (contract: RecoveryContract, evidence: unknown, nowMs: number) =>
        verifyConfirmationEvidence(validateArtifactDocument(evidence), {
          authorities,
          nowMs,
          expected: {
            contractId: contract.contract_id,
            operationId: contract.operation_id,
            intentDigest: contract.intent_digest,
            executionIntentDigest: contract.provenance.execution_intent_digest,
            targetFingerprint: contract.target_fingerprint,
          },
        }),
    }),
    reconciliationVerifier: Object.freeze({
      verify: (contract: RecoveryContract, evidence: unknown, nowMs: number) => {
        if (contract.reconciliation === null) throw new TypeError('reconciliation verifier: contract is not in reconciliation');
        return verifyReconciliationEvidence(validateArtifactDocument(evidence), {
          authorities,
          nowMs,
          expected: {
            contractId: contract.contract_id,
            operationId: contract.operation_id,
            stateVersion: contract.state_version,
            origin: contract.reconciliation.origin,
          },
        });
      },
    }),
    reservationReleaseVerifier: Object.freeze({
      verify: (contract: RecoveryContract, release: unknown, nowMs: number) =>
        verifyReservationRelease(validateArtifactDocument(release), {
          authorities,
          nowMs,
          expected: { contractId: contract.contract_id, operationId: contract.operation_id, stateVersion: contract.state_version },
        }),
    }),
  });
}
