import type { PinnedAuthoritySet } from '@pfsense-mcp/crypto';
import { ArtifactKind } from './artifact-kind.js';
import { ArtifactVerificationError } from './artifact-verification-error.js';
import type { Artifact } from './artifact.js';
import { checkConfirmationBinding } from './check-bindings.js';
import type { ExpectedConfirmationBinding } from './check-bindings.js';
import { checkCurrentness } from './check-currentness.js';
import { artifactDigestOf } from './signing-message.js';
import { verifyArtifactSignature } from './verify-artifact-signature.js';

/** The verified facts, shaped as contract-store's VerifiedConfirmation. */
export interface VerifiedConfirmationFacts {
  readonly confirmationId: string;
  /** The signed message digest (64 hex) — recorded by the store instead of the proof bytes. */
  readonly confirmationDigest: string;
  readonly authorityKeyId: string;
  readonly contractId: string;
  readonly expiresAt: number;
}

/** Kind → signature (role confirmation) → currentness → binding to this contract. Pure. */
export function verifyConfirmationEvidence(
  artifact: Artifact,
  options: { authorities: PinnedAuthoritySet; nowMs: number; expected: ExpectedConfirmationBinding },
): VerifiedConfirmationFacts {
  if (artifact.kind !== ArtifactKind.CONFIRMATION) {
    throw new ArtifactVerificationError('WRONG_KIND', String(artifact.kind), 'is not ConfirmationEvidence');
  }
  verifyArtifactSignature(artifact, options.authorities);
  checkCurrentness(artifact, options.nowMs);
  checkConfirmationBinding(artifact, options.expected);
  const p = artifact.payload;
  return Object.freeze({
    confirmationId: p.confirmation_id,
    confirmationDigest: artifactDigestOf(artifact),
    authorityKeyId: p.key_id,
    contractId: p.contract_id,
    expiresAt: p.expires_at,
  });
}
