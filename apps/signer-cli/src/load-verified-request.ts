import { ArtifactVerificationError, verifyPendingRequest } from '@pfsense-mcp/authorization';
import type { PendingRequest } from '@pfsense-mcp/authorization';
import { PinnedAuthoritySet } from '@pfsense-mcp/crypto';
import { reviewPendingRequest } from './pending-request-review.js';
import type { RequestReview } from './pending-request-review.js';
import { ExitCode } from './exit-code.js';
import { readArtifactFile } from './read-artifact-file.js';
import { readPublicKeyInput } from './public-key-input.js';
import { SignerError } from './signer-error.js';

/** Runs an authorization-lib check; its refusal becomes exit 4 with the check's code. */
export function refuseOnVerification<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof ArtifactVerificationError) throw SignerError.fromLibrary(ExitCode.ARTIFACT_REFUSED, e);
    throw e;
  }
}

/**
 * Reads a pending request file safely, verifies the server's signature against the one pinned server key
 * (role server-request), refuses it if expired, recomputes every digest (generic, then the alias-specific
 * ones) — and only then returns what may be shown.
 */
export function loadVerifiedRequest(
  file: string | undefined,
  serverKey: string | undefined,
  nowMs: number,
): { request: PendingRequest; review: RequestReview } {
  if (file === undefined) throw new SignerError(ExitCode.USAGE, 'USAGE', 'missing FILE; see --help');
  if (serverKey === undefined) throw new SignerError(ExitCode.USAGE, 'USAGE', 'missing --server-key (the pinned server public key)');
  const server = readPublicKeyInput(serverKey, '--server-key');
  const pinned = PinnedAuthoritySet.of([{ keyId: server.keyId, publicKey: server.publicKey, role: 'server-request', active: true }]);
  const artifact = readArtifactFile(file, 'FILE');
  const request = refuseOnVerification(() => verifyPendingRequest(artifact, { serverAuthorities: pinned, nowMs }));
  return { request, review: reviewPendingRequest(request) };
}
