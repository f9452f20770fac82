// The last steps every artifact builder shares: the signature fields of the signing key, then the payload
// checked against its schema, signed and frozen (docs/DESIGN.md §6).
import { ED25519_ALGORITHM } from '@pfsense-mcp/crypto';
import { deepFreeze } from '@pfsense-mcp/foundation';
import type { z } from 'zod';
import type { SignedArtifactKind } from './artifact-kind.js';
import { parseWith } from './parse-with.js';
import { keyIdOfSigningKey, signDocument } from './signing-message.js';
import type { SigningKey } from './signing-message.js';

/** key_id (of `key`), algorithm (Ed25519), issued_at and expires_at of a payload `key` signs. */
export function signatureFieldsOf(
  key: SigningKey,
  issuedAt: number,
  expiresAt: number,
): { key_id: string; algorithm: typeof ED25519_ALGORITHM; issued_at: number; expires_at: number } {
  return { key_id: keyIdOfSigningKey(key), algorithm: ED25519_ALGORITHM, issued_at: issuedAt, expires_at: expiresAt };
}

/** Checks `payload` against the kind's payload schema (ArtifactFormatError SCHEMA), signs it, returns it frozen. */
export function signPayload<K extends SignedArtifactKind, P extends { readonly key_id: string; readonly algorithm: string }>(
  kind: K,
  payloadSchema: z.ZodType<P>,
  payload: unknown,
  key: SigningKey,
): { readonly kind: K; readonly version: number; readonly payload: P; readonly proof: { readonly signature: string } } {
  const checked = parseWith(payloadSchema, payload, 'payload');
  return deepFreeze(signDocument(kind, checked, key));
}
