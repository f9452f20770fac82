import { checkReviewBounds } from './alias-state-bounds.js';
import { z } from 'zod';
import { applianceBindingSchema } from './appliance-binding.js';
import type { ApplianceBinding } from './appliance-binding.js';
import { ArtifactKind } from './artifact-kind.js';
import { ArtifactVerificationError } from './artifact-verification-error.js';
import { assertObject } from '@pfsense-mcp/foundation';
import { writeReviewSchema, hex64Schema, safeTokenSchema } from './field-schemas.js';
import type { WriteReview, Proof } from './field-schemas.js';
import { checkIntentApplianceFacts, intentApplianceFacts } from './intent-appliance-facts.js';
import { executionIntentDigest, preparedExecutionIntentSchema } from './prepared-execution-intent.js';
import type { PreparedExecutionIntentV1 } from './prepared-execution-intent.js';
import type { SigningKey } from './signing-message.js';
import { signPayload, signatureFieldsOf } from './sign-payload.js';
import { signatureFieldsShape, signedDocumentSchema } from './signed-document-schema.js';
import type { SignatureFields } from './signed-document-schema.js';

export interface PendingConfirmationRequestPayload extends SignatureFields {
  readonly contract_id: string;
  readonly operation_id: string;
  /** The contract's intent_digest (INTENT purpose over the normalized intent). */
  readonly intent_digest: string;
  /** The contract's provenance execution-intent digest. */
  readonly execution_intent_digest: string;
  /** The contract's target_fingerprint (pre-state). */
  readonly target_fingerprint: string;
  readonly execution_intent: PreparedExecutionIntentV1;
  readonly appliance: ApplianceBinding;
  readonly appliance_binding_digest: string;
  readonly review: WriteReview;
}

/** Written by the server once a contract is PREPARED; names the contract the operator confirms. */
export interface PendingConfirmationRequest {
  readonly kind: typeof ArtifactKind.CONFIRMATION_REQUEST;
  readonly version: 1;
  readonly payload: PendingConfirmationRequestPayload;
  readonly proof: Proof;
}

export const pendingConfirmationRequestSchema = signedDocumentSchema(
  ArtifactKind.CONFIRMATION_REQUEST,
  z.strictObject({
    contract_id: safeTokenSchema,
    operation_id: safeTokenSchema,
    intent_digest: hex64Schema,
    execution_intent_digest: hex64Schema,
    target_fingerprint: hex64Schema,
    execution_intent: preparedExecutionIntentSchema,
    appliance: applianceBindingSchema,
    appliance_binding_digest: hex64Schema,
    review: writeReviewSchema,
    ...signatureFieldsShape,
  }),
);

export interface PendingConfirmationRequestInput {
  readonly contractId: string;
  readonly operationId: string;
  /** The contract's intent_digest, as stored. */
  readonly intentDigest: string;
  /** The contract's target_fingerprint, as stored. */
  readonly targetFingerprint: string;
  readonly executionIntent: PreparedExecutionIntentV1;
  readonly appliance: ApplianceBinding;
  readonly review: WriteReview;
  readonly issuedAt: number;
  /** Confirmation expiry (must not outlive the contract), integer UTC ms. */
  readonly expiresAt: number;
}

/** Builds and signs a pending confirmation request with the server's request key. */
export function createPendingConfirmationRequest(
  input: PendingConfirmationRequestInput,
  serverKey: SigningKey,
): PendingConfirmationRequest {
  assertObject(input, 'createPendingConfirmationRequest: "input"');
  const { execution_intent, appliance, appliance_binding_digest } = intentApplianceFacts('createPendingConfirmationRequest', input);
  if (execution_intent.payload.precondition_fingerprint !== input.targetFingerprint) {
    throw new TypeError('createPendingConfirmationRequest: "targetFingerprint" is not the intent\'s precondition');
  }
  const payload = {
    contract_id: input.contractId,
    operation_id: input.operationId,
    intent_digest: input.intentDigest,
    execution_intent_digest: executionIntentDigest(execution_intent),
    target_fingerprint: input.targetFingerprint,
    execution_intent,
    appliance,
    appliance_binding_digest,
    review: input.review,
    ...signatureFieldsOf(serverKey, input.issuedAt, input.expiresAt),
  };
  checkReviewBounds(payload.review);
  return signPayload(
    ArtifactKind.CONFIRMATION_REQUEST,
    pendingConfirmationRequestSchema.shape.payload,
    payload,
    serverKey,
  ) as PendingConfirmationRequest;
}

/**
 * Recomputes the generic digests of a confirmation request: appliance binding and execution intent, and
 * that the target fingerprint is the intent's precondition. (The intent_digest and the fingerprint of the
 * shown pre-state are capability-specific: the signer recomputes them with the adapter.)
 */
export function checkConfirmationRequestDigests(request: PendingConfirmationRequest): void {
  const p = request.payload;
  const kind = ArtifactKind.CONFIRMATION_REQUEST;
  checkIntentApplianceFacts(kind, p);
  if (executionIntentDigest(p.execution_intent) !== p.execution_intent_digest) {
    throw new ArtifactVerificationError('DIGEST_MISMATCH', kind, 'execution intent digest does not match the intent');
  }
  if (p.execution_intent.payload.precondition_fingerprint !== p.target_fingerprint) {
    throw new ArtifactVerificationError('DIGEST_MISMATCH', kind, 'target fingerprint is not the intent precondition');
  }
}
