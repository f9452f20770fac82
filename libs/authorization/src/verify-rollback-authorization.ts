import type { PinnedAuthoritySet } from '@pfsense-mcp/crypto';
import { ArtifactKind } from './artifact-kind.js';
import { ArtifactVerificationError } from './artifact-verification-error.js';
import type { Artifact } from './artifact.js';
import { checkCurrentness } from './check-currentness.js';
import { artifactDigestOf } from './signing-message.js';
import { verifyArtifactSignature } from './verify-artifact-signature.js';

/** What a rollback authorization must be bound to: the VERIFIED contract as it is now. */
export interface ExpectedRollbackBinding {
  readonly contractId: string;
  readonly operationId: string;
  readonly stateVersion: number;
  readonly verifiedTargetFingerprint: string;
}

/** The verified facts of a rollback authorization (its id is consumed once by the caller). */
export interface VerifiedRollbackAuthorization {
  readonly rollbackAuthorizationId: string;
  readonly authorizationDigest: string;
  readonly authorityKeyId: string;
  readonly issuedAt: number;
  readonly expiresAt: number;
}

/** Kind → signature (role confirmation) → currentness → binding to this contract, state version and sealed fingerprint. Pure. */
export function verifyRollbackAuthorization(
  artifact: Artifact,
  options: { authorities: PinnedAuthoritySet; nowMs: number; expected: ExpectedRollbackBinding },
): VerifiedRollbackAuthorization {
  const kind = ArtifactKind.ROLLBACK_AUTHORIZATION;
  if (artifact.kind !== kind) throw new ArtifactVerificationError('WRONG_KIND', String(artifact.kind), 'is not a RollbackAuthorization');
  verifyArtifactSignature(artifact, options.authorities);
  checkCurrentness(artifact, options.nowMs);
  const p = artifact.payload;
  const e = options.expected;
  if (
    p.contract_id !== e.contractId ||
    p.operation_id !== e.operationId ||
    p.state_version !== e.stateVersion ||
    p.verified_target_fingerprint !== e.verifiedTargetFingerprint
  ) {
    throw new ArtifactVerificationError('BINDING_MISMATCH', kind, 'is bound to another contract, state or verified alias');
  }
  return Object.freeze({
    rollbackAuthorizationId: p.rollback_authorization_id,
    authorizationDigest: artifactDigestOf(artifact),
    authorityKeyId: p.key_id,
    issuedAt: p.issued_at,
    expiresAt: p.expires_at,
  });
}
