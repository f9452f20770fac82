import { z } from 'zod';
import { MAX_ARTIFACT_LIFETIME_MS } from './artifact-limits.js';
import { ARTIFACT_RULES } from './artifact-kind.js';
import type { SignedArtifactKind } from './artifact-kind.js';
import { algorithmSchema, hex64Schema, proofSchema, utcMsSchema } from './field-schemas.js';

/** Fields every signed payload carries: who signed (key id, algorithm) and the validity window. */
export const signatureFieldsShape = {
  key_id: hex64Schema,
  algorithm: algorithmSchema,
  issued_at: utcMsSchema,
  expires_at: utcMsSchema,
};

export interface SignatureFields {
  readonly key_id: string;
  readonly algorithm: string;
  /** Integer UTC ms when the signer (server or operator) made it. */
  readonly issued_at: number;
  /** Integer UTC ms; valid only while now < expires_at. */
  readonly expires_at: number;
}

/** A validity window must be non-empty and at most MAX_ARTIFACT_LIFETIME_MS long. */
export function windowIsSane(v: { issued_at: number; expires_at: number }): boolean {
  return v.expires_at > v.issued_at && v.expires_at - v.issued_at <= MAX_ARTIFACT_LIFETIME_MS;
}

/**
 * {kind: <literal>, version: <literal>, payload, proof} — strict at every level. `version` defaults to the
 * kind's current one; an older version's schema passes its own.
 */
export function signedDocumentSchema<K extends SignedArtifactKind, P extends z.ZodType<{ issued_at: number; expires_at: number }>>(
  kind: K,
  payload: P,
  version: number = ARTIFACT_RULES[kind].version,
) {
  return z.strictObject({
    kind: z.literal(kind),
    version: z.literal(version),
    payload: payload.refine(windowIsSane, { message: 'validity window is empty or too long', path: ['expires_at'] }),
    proof: proofSchema,
  });
}
