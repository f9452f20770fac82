import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ArtifactKind } from './artifact-kind.js';
import { hex64Schema, safeTokenSchema } from './field-schemas.js';
import type { Proof } from './field-schemas.js';
import type { PendingConfirmationRequest } from './pending-confirmation-request.js';
import type { SigningKey } from './signing-message.js';
import { signPayload, signatureFieldsOf } from './sign-payload.js';
import { signatureFieldsShape, signedDocumentSchema } from './signed-document-schema.js';
import type { SignatureFields } from './signed-document-schema.js';

export interface ConfirmationEvidencePayload extends SignatureFields {
  readonly confirmation_id: string;
  readonly contract_id: string;
  readonly operation_id: string;
  readonly intent_digest: string;
  readonly execution_intent_digest: string;
  readonly target_fingerprint: string;
  /** The key id of the server request key that signed the confirmation request (docs/DESIGN.md §10). */
  readonly request_key_id: string;
}

/** Operator-signed (role `confirmation`) approval of one exact contract (docs/DESIGN.md §6). */
export interface ConfirmationEvidence {
  readonly kind: typeof ArtifactKind.CONFIRMATION;
  readonly version: 1;
  readonly payload: ConfirmationEvidencePayload;
  readonly proof: Proof;
}

export const confirmationEvidenceSchema = signedDocumentSchema(
  ArtifactKind.CONFIRMATION,
  z.strictObject({
    confirmation_id: safeTokenSchema,
    contract_id: safeTokenSchema,
    operation_id: safeTokenSchema,
    intent_digest: hex64Schema,
    execution_intent_digest: hex64Schema,
    target_fingerprint: hex64Schema,
    request_key_id: hex64Schema,
    ...signatureFieldsShape,
  }),
);

/**
 * Signs a confirmation of the contract a (verified) pending request names, copying its bindings, its expiry
 * and the id of the server key that signed it. `issuedAt` is the signer's clock; a request already expired is refused here too.
 */
export function createConfirmationEvidence(
  request: PendingConfirmationRequest,
  authorityKey: SigningKey,
  options: { issuedAt: number; confirmationId?: string },
): ConfirmationEvidence {
  const p = request.payload;
  const payload = {
    confirmation_id: options.confirmationId ?? randomUUID(),
    contract_id: p.contract_id,
    operation_id: p.operation_id,
    intent_digest: p.intent_digest,
    execution_intent_digest: p.execution_intent_digest,
    target_fingerprint: p.target_fingerprint,
    request_key_id: p.key_id,
    ...signatureFieldsOf(authorityKey, options.issuedAt, p.expires_at),
  };
  return signPayload(ArtifactKind.CONFIRMATION, confirmationEvidenceSchema.shape.payload, payload, authorityKey) as ConfirmationEvidence;
}
