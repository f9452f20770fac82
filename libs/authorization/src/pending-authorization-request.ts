import { checkReviewBounds } from './alias-state-bounds.js';
import { z } from 'zod';
import { applianceBindingSchema } from './appliance-binding.js';
import type { ApplianceBinding } from './appliance-binding.js';
import { ArtifactKind } from './artifact-kind.js';
import { ArtifactVerificationError } from './artifact-verification-error.js';
import { assertObject } from '@pfsense-mcp/foundation';
import { writeReviewSchema, hex64Schema, riskClassSchema, safeTokenSchema } from './field-schemas.js';
import type { WriteReview, Proof, RiskClass } from './field-schemas.js';
import { checkIntentApplianceFacts, intentApplianceFacts } from './intent-appliance-facts.js';
import { planDigestOf } from './plan-digest.js';
import { executionIntentDigest, preparedExecutionIntentSchema } from './prepared-execution-intent.js';
import type { PreparedExecutionIntentV1 } from './prepared-execution-intent.js';
import type { SigningKey } from './signing-message.js';
import { signPayload, signatureFieldsOf } from './sign-payload.js';
import { signatureFieldsShape, signedDocumentSchema } from './signed-document-schema.js';
import type { SignatureFields } from './signed-document-schema.js';

export interface PendingAuthorizationRequestPayload extends SignatureFields {
  readonly operation_id: string;
  readonly step_id: string;
  readonly risk_class: RiskClass;
  readonly plan_digest: string;
  readonly execution_intent: PreparedExecutionIntentV1;
  readonly execution_intent_digest: string;
  readonly appliance: ApplianceBinding;
  readonly appliance_binding_digest: string;
  /** Full pre-state and the requested description, so the signer can show and recompute everything. */
  readonly review: WriteReview;
}

/** Written by the server to its outbox, signed with its own `server-request` key; never an authorization. */
export interface PendingAuthorizationRequest {
  readonly kind: typeof ArtifactKind.AUTHORIZATION_REQUEST;
  readonly version: 1;
  readonly payload: PendingAuthorizationRequestPayload;
  readonly proof: Proof;
}

export const pendingAuthorizationRequestSchema = signedDocumentSchema(
  ArtifactKind.AUTHORIZATION_REQUEST,
  z.strictObject({
    operation_id: safeTokenSchema,
    step_id: safeTokenSchema,
    risk_class: riskClassSchema,
    plan_digest: hex64Schema,
    execution_intent: preparedExecutionIntentSchema,
    execution_intent_digest: hex64Schema,
    appliance: applianceBindingSchema,
    appliance_binding_digest: hex64Schema,
    review: writeReviewSchema,
    ...signatureFieldsShape,
  }),
);

export interface PendingAuthorizationRequestInput {
  readonly operationId: string;
  readonly stepId: string;
  readonly riskClass: RiskClass;
  readonly executionIntent: PreparedExecutionIntentV1;
  readonly appliance: ApplianceBinding;
  readonly review: WriteReview;
  /** Integer UTC ms (the server's clock). */
  readonly issuedAt: number;
  /** Requested expiry of the authorization, integer UTC ms; the request itself is void after it too. */
  readonly expiresAt: number;
}

/**
 * Builds and signs a pending authorization request with the server's own request key. Every digest is
 * computed here from the facts it carries (appliance binding, execution intent, plan), and the intent must
 * name the same appliance binding digest — so a request can only be built consistent.
 */
export function createPendingAuthorizationRequest(
  input: PendingAuthorizationRequestInput,
  serverKey: SigningKey,
): PendingAuthorizationRequest {
  assertObject(input, 'createPendingAuthorizationRequest: "input"');
  const { execution_intent, appliance, appliance_binding_digest } = intentApplianceFacts('createPendingAuthorizationRequest', input);
  const execution_intent_digest = executionIntentDigest(execution_intent);
  const payload = {
    operation_id: input.operationId,
    step_id: input.stepId,
    risk_class: input.riskClass,
    plan_digest: planDigestOf({
      operationId: input.operationId,
      steps: [{ step_id: input.stepId, execution_intent_digest }],
    }),
    execution_intent,
    execution_intent_digest,
    appliance,
    appliance_binding_digest,
    review: input.review,
    ...signatureFieldsOf(serverKey, input.issuedAt, input.expiresAt),
  };
  checkReviewBounds(payload.review);
  return signPayload(
    ArtifactKind.AUTHORIZATION_REQUEST,
    pendingAuthorizationRequestSchema.shape.payload,
    payload,
    serverKey,
  ) as PendingAuthorizationRequest;
}

/**
 * Recomputes every digest the request carries from the facts it shows — appliance binding, execution
 * intent, plan — and checks that the intent names the same appliance. Pure; throws DIGEST_MISMATCH.
 */
export function checkAuthorizationRequestDigests(request: PendingAuthorizationRequest): void {
  const p = request.payload;
  const kind = ArtifactKind.AUTHORIZATION_REQUEST;
  checkIntentApplianceFacts(kind, p);
  const intentDigest = executionIntentDigest(p.execution_intent);
  if (intentDigest !== p.execution_intent_digest) {
    throw new ArtifactVerificationError('DIGEST_MISMATCH', kind, 'execution intent digest does not match the intent');
  }
  const plan = planDigestOf({ operationId: p.operation_id, steps: [{ step_id: p.step_id, execution_intent_digest: intentDigest }] });
  if (plan !== p.plan_digest) throw new ArtifactVerificationError('DIGEST_MISMATCH', kind, 'plan digest does not match');
}
