import { hexToBytes } from '@pfsense-mcp/canonical';
import { AuthorityError, ED25519_ALGORITHM, PinnedAuthoritySet } from '@pfsense-mcp/crypto';
import { ARTIFACT_RULES } from './artifact-kind.js';
import { ArtifactVerificationError } from './artifact-verification-error.js';
import type { SignedArtifact } from './artifact.js';
import { validateArtifactDocument } from './parse-artifact.js';
import { signingDigestBytes } from './signing-message.js';

/**
 * Check 1 of every artifact: the algorithm (before any signature work), then the signature against the
 * pinned set in the one role the artifact's kind requires — `server-request` for pending requests,
 * `plan-authorization`, `confirmation` or `reconciliation` for operator artifacts. The role comes from the
 * kind, never from the caller or the document, and a key is pinned in exactly one role, so a server-request
 * key is refused in every other role (WRONG_ROLE). The document is re-validated first, so a hand-built
 * object cannot skip the schema. Throws ArtifactVerificationError; returns nothing on success.
 */
export function verifyArtifactSignature(artifact: SignedArtifact, authorities: PinnedAuthoritySet): void {
  if (!(authorities instanceof PinnedAuthoritySet)) {
    throw new TypeError('verifyArtifactSignature: "authorities" must be a PinnedAuthoritySet');
  }
  const doc = validateArtifactDocument(artifact);
  const role = ARTIFACT_RULES[doc.kind].role;
  if (role === null || !('proof' in doc)) {
    throw new ArtifactVerificationError('WRONG_KIND', doc.kind, 'is not a signed artifact');
  }
  if (doc.payload.algorithm !== ED25519_ALGORITHM) {
    throw new ArtifactVerificationError('UNSUPPORTED_ALGORITHM', doc.kind, 'only Ed25519 signatures are accepted');
  }
  try {
    authorities.verify({
      role,
      keyId: doc.payload.key_id,
      algorithm: doc.payload.algorithm,
      message: signingDigestBytes(doc.kind, doc.version, doc.payload),
      signature: hexToBytes(doc.proof.signature),
    });
  } catch (e) {
    if (e instanceof AuthorityError) {
      const code =
        e.code === 'UNSUPPORTED_ALGORITHM' || e.code === 'UNKNOWN_KEY' || e.code === 'INACTIVE_KEY' || e.code === 'WRONG_ROLE'
          ? e.code
          : 'BAD_SIGNATURE';
      throw new ArtifactVerificationError(code, doc.kind, `signature refused for role ${role}`);
    }
    throw e;
  }
}
