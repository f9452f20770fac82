import type { PinnedAuthoritySet } from '@pfsense-mcp/crypto';
import { ArtifactKind, PENDING_REQUEST_KINDS } from './artifact-kind.js';
import type { SignedArtifactKind } from './artifact-kind.js';
import { ArtifactVerificationError } from './artifact-verification-error.js';
import type { Artifact, PendingRequest } from './artifact.js';
import { checkCurrentness } from './check-currentness.js';
import { checkAuthorizationRequestDigests } from './pending-authorization-request.js';
import { checkConfirmationRequestDigests } from './pending-confirmation-request.js';
import { checkApplianceFactsDigest } from './request-appliance-facts.js';
import { verifyArtifactSignature } from './verify-artifact-signature.js';

/**
 * What the signer does before showing anything: kind is a pending request → server signature (role
 * server-request) → currentness (an expired request is refused) → every generic digest recomputed from the
 * facts the request carries. Capability-specific digests (fingerprints of the shown alias) are the caller's
 * next check. Pure.
 */
export function verifyPendingRequest(
  artifact: Artifact,
  options: { serverAuthorities: PinnedAuthoritySet; nowMs: number },
): PendingRequest {
  if (!PENDING_REQUEST_KINDS.has(artifact.kind as SignedArtifactKind)) {
    throw new ArtifactVerificationError('WRONG_KIND', String(artifact.kind), 'is not a pending request');
  }
  const request = artifact as PendingRequest;
  verifyArtifactSignature(request, options.serverAuthorities);
  checkCurrentness(request, options.nowMs);
  if (request.kind === ArtifactKind.AUTHORIZATION_REQUEST) checkAuthorizationRequestDigests(request);
  if (request.kind === ArtifactKind.CONFIRMATION_REQUEST) checkConfirmationRequestDigests(request);
  if (
    request.kind === ArtifactKind.RECONCILIATION_REQUEST ||
    request.kind === ArtifactKind.RELEASE_REQUEST ||
    request.kind === ArtifactKind.ROLLBACK_REQUEST
  ) {
    checkApplianceFactsDigest(request.kind, request.payload);
  }
  return request;
}
