import { bytesToHex, digestBytes } from '@pfsense-mcp/canonical';
import { ED25519_ALGORITHM, ed25519PublicKeyOf, ed25519Sign, keyIdOf } from '@pfsense-mcp/crypto';
import { ARTIFACT_RULES } from './artifact-kind.js';
import { ARTIFACT_CANONICAL_LIMITS } from './artifact-limits.js';
import type { ArtifactKind, SignedArtifactKind } from './artifact-kind.js';

/** The private half of a signing key (what crypto's readEd25519PrivateKeyFile returns, or a raw seed). */
export interface SigningKey {
  readonly privateKey: Uint8Array;
}

/**
 * The 32 bytes every artifact signature covers:
 *   digestBytes(purpose(kind), { kind, version, payload })
 * i.e. SHA-256 over frame(["pfsense-mcp", "v1", purpose, canonical JSON of {kind, version, payload}]).
 * Kind and version are inside the digested object, so a payload can never verify as another kind or another
 * version even where two kinds share a digest purpose; the proof is outside (it cannot sign itself).
 */
export function signingDigestBytes(kind: ArtifactKind, version: number, payload: unknown): Uint8Array {
  const rule = ARTIFACT_RULES[kind];
  if (rule === undefined) throw new TypeError('signingDigestBytes: "kind" must be an ArtifactKind');
  return digestBytes(rule.purpose, { kind, version, payload }, ARTIFACT_CANONICAL_LIMITS);
}

/** The signed message of an artifact document, as 64 lowercase hex (what the signer shows and approves). */
export function artifactDigestOf(artifact: { readonly kind: ArtifactKind; readonly version: number; readonly payload: unknown }): string {
  return bytesToHex(signingDigestBytes(artifact.kind, artifact.version, artifact.payload));
}

/** Key id of a signing key (digest of its public key). */
export function keyIdOfSigningKey(key: SigningKey): string {
  if (key === null || typeof key !== 'object' || !(key.privateKey instanceof Uint8Array)) {
    throw new TypeError('signing key: "privateKey" must be a Uint8Array');
  }
  return keyIdOf(ed25519PublicKeyOf(key.privateKey));
}

/**
 * Signs a payload whose key_id/algorithm already name this key and Ed25519; returns the frozen document.
 * Internal to the builders, which validate the payload first.
 */
export function signDocument<K extends SignedArtifactKind, P extends { readonly key_id: string; readonly algorithm: string }>(
  kind: K,
  payload: P,
  key: SigningKey,
): { readonly kind: K; readonly version: number; readonly payload: P; readonly proof: { readonly signature: string } } {
  if (payload.algorithm !== ED25519_ALGORITHM) throw new TypeError('sign: payload algorithm must be Ed25519');
  if (payload.key_id !== keyIdOfSigningKey(key)) throw new TypeError('sign: payload key_id must be the signing key id');
  const version = ARTIFACT_RULES[kind].version;
  const signature = bytesToHex(ed25519Sign(key.privateKey, signingDigestBytes(kind, version, payload)));
  return Object.freeze({ kind, version, payload, proof: Object.freeze({ signature }) });
}
