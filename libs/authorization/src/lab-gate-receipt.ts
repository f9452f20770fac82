import { z } from 'zod';
import { ArtifactKind } from './artifact-kind.js';
import { hex64Schema, safeTokenSchema } from './field-schemas.js';
import type { Proof } from './field-schemas.js';
import { labGateScopeShape, withDeadlineIsExpiry } from './lab-gate-scope.js';
import type { LabGateRequest } from './lab-gate-request.js';
import { artifactDigestOf } from './signing-message.js';
import type { SigningKey } from './signing-message.js';
import { signPayload, signatureFieldsOf } from './sign-payload.js';
import { signatureFieldsShape, signedDocumentSchema } from './signed-document-schema.js';
import type { SignatureFields } from './signed-document-schema.js';

export interface LabGateReceiptPayload extends SignatureFields {
  readonly gate_id: string;
  /** artifactDigestOf(the gate request): the receipt answers exactly that request. */
  readonly request_digest: string;
  /** Key id of the runner's request key that signed the request. */
  readonly request_key_id: string;
  readonly appliance_binding_digest: string;
  readonly candidate_alias: string;
  readonly scenarios: readonly string[];
  /** Absolute UTC ms; equal to expires_at and to the request's deadline. */
  readonly deadline: number;
}

/** Operator-signed (role `lab-gate`) permission for one lab run: appliance, candidate, scenarios, deadline. */
export interface LabGateReceipt {
  readonly kind: typeof ArtifactKind.LAB_GATE_RECEIPT;
  readonly version: 1;
  readonly payload: LabGateReceiptPayload;
  readonly proof: Proof;
}

export const labGateReceiptSchema = signedDocumentSchema(
  ArtifactKind.LAB_GATE_RECEIPT,
  withDeadlineIsExpiry(
    z.strictObject({
      gate_id: safeTokenSchema,
      request_digest: hex64Schema,
      request_key_id: hex64Schema,
      appliance_binding_digest: hex64Schema,
      ...labGateScopeShape,
      ...signatureFieldsShape,
    }),
  ),
);

/** Signs the receipt of a (verified) gate request, copying its bindings and its deadline. */
export function createLabGateReceipt(request: LabGateRequest, gateKey: SigningKey, options: { issuedAt: number }): LabGateReceipt {
  const p = request.payload;
  const payload = {
    gate_id: p.gate_id,
    request_digest: artifactDigestOf(request),
    request_key_id: p.key_id,
    appliance_binding_digest: p.appliance_binding_digest,
    candidate_alias: p.candidate_alias,
    scenarios: [...p.scenarios],
    deadline: p.deadline,
    ...signatureFieldsOf(gateKey, options.issuedAt, p.deadline),
  };
  return signPayload(ArtifactKind.LAB_GATE_RECEIPT, labGateReceiptSchema.shape.payload, payload, gateKey) as LabGateReceipt;
}
