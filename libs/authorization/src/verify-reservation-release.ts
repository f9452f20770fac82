import type { PinnedAuthoritySet } from '@pfsense-mcp/crypto';
import { ArtifactKind } from './artifact-kind.js';
import { ArtifactVerificationError } from './artifact-verification-error.js';
import type { Artifact } from './artifact.js';
import { checkReleaseBinding } from './check-bindings.js';
import type { ExpectedReleaseBinding } from './check-bindings.js';
import { checkCurrentness } from './check-currentness.js';
import { artifactDigestOf } from './signing-message.js';
import { verifyArtifactSignature } from './verify-artifact-signature.js';

/** The verified facts, shaped as contract-store's VerifiedReservationRelease. */
export interface VerifiedReleaseFacts {
  readonly releaseId: string;
  readonly releaseDigest: string;
  readonly authorityKeyId: string;
  readonly authorityRole: 'reconciliation';
  readonly contractId: string;
  readonly operationId: string;
  readonly stateVersion: number;
}

/** Kind → signature (role reconciliation) → currentness → binding to this contract state. Pure. */
export function verifyReservationRelease(
  artifact: Artifact,
  options: { authorities: PinnedAuthoritySet; nowMs: number; expected: ExpectedReleaseBinding },
): VerifiedReleaseFacts {
  if (artifact.kind !== ArtifactKind.RELEASE) {
    throw new ArtifactVerificationError('WRONG_KIND', String(artifact.kind), 'is not a ReservationRelease');
  }
  verifyArtifactSignature(artifact, options.authorities);
  checkCurrentness(artifact, options.nowMs);
  checkReleaseBinding(artifact, options.expected);
  const p = artifact.payload;
  return Object.freeze({
    releaseId: p.release_id,
    releaseDigest: artifactDigestOf(artifact),
    authorityKeyId: p.key_id,
    authorityRole: 'reconciliation' as const,
    contractId: p.contract_id,
    operationId: p.operation_id,
    stateVersion: p.state_version,
  });
}
