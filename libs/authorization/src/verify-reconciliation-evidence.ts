import type { PinnedAuthoritySet } from '@pfsense-mcp/crypto';
import { ArtifactKind } from './artifact-kind.js';
import { ArtifactVerificationError } from './artifact-verification-error.js';
import type { Artifact } from './artifact.js';
import { checkReconciliationBinding } from './check-bindings.js';
import type { ExpectedReconciliationBinding } from './check-bindings.js';
import { checkCurrentness } from './check-currentness.js';
import { resolutionOutcomeOf } from './reconciliation-evidence.js';
import type { ReconciliationOrigin, ResolutionOutcome } from './reconciliation-evidence.js';
import { artifactDigestOf } from './signing-message.js';
import { verifyArtifactSignature } from './verify-artifact-signature.js';

/** The verified facts, shaped as contract-store's VerifiedResolution. */
export interface VerifiedResolutionFacts {
  readonly resolutionId: string;
  readonly resolutionDigest: string;
  readonly authorityKeyId: string;
  readonly authorityRole: 'reconciliation';
  readonly contractId: string;
  readonly operationId: string;
  readonly stateVersion: number;
  readonly origin: ReconciliationOrigin;
  readonly outcome: ResolutionOutcome;
  readonly observedLifecycleLocator: number;
  readonly observedFingerprint: string | null;
}

/** Kind → signature (role reconciliation) → currentness → binding to this contract state. Pure. */
export function verifyReconciliationEvidence(
  artifact: Artifact,
  options: { authorities: PinnedAuthoritySet; nowMs: number; expected: ExpectedReconciliationBinding },
): VerifiedResolutionFacts {
  if (artifact.kind !== ArtifactKind.RECONCILIATION) {
    throw new ArtifactVerificationError('WRONG_KIND', String(artifact.kind), 'is not ReconciliationEvidence');
  }
  verifyArtifactSignature(artifact, options.authorities);
  checkCurrentness(artifact, options.nowMs);
  checkReconciliationBinding(artifact, options.expected);
  const p = artifact.payload;
  return Object.freeze({
    resolutionId: p.resolution_id,
    resolutionDigest: artifactDigestOf(artifact),
    authorityKeyId: p.key_id,
    authorityRole: 'reconciliation' as const,
    contractId: p.contract_id,
    operationId: p.operation_id,
    stateVersion: p.state_version,
    origin: p.origin,
    outcome: resolutionOutcomeOf(p.origin, p.outcome),
    observedLifecycleLocator: p.observed_locator,
    observedFingerprint: p.observed_fingerprint,
  });
}
