import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ArtifactKind } from './artifact-kind.js';
import { assertObject } from '@pfsense-mcp/foundation';
import { hex64Schema, riskClassSchema, safeTokenSchema } from './field-schemas.js';
import type { Proof, RiskClass } from './field-schemas.js';
import { sortedStepBindings } from './plan-digest.js';
import type { PlanStepBinding } from './plan-digest.js';
import type { PendingAuthorizationRequest } from './pending-authorization-request.js';
import type { SigningKey } from './signing-message.js';
import { signPayload, signatureFieldsOf } from './sign-payload.js';
import { signatureFieldsShape, signedDocumentSchema } from './signed-document-schema.js';
import type { SignatureFields } from './signed-document-schema.js';

export interface PlanAuthorizationV2Payload extends SignatureFields {
  readonly authorization_id: string;
  readonly plan_digest: string;
  /** Non-empty, sorted by step id, no repeats: each step with the exact execution intent it may run. */
  readonly steps: readonly PlanStepBinding[];
  readonly risk_class: RiskClass;
  /**
   * The key id of the server request key that signed the request this answers (copied by the signer): a server
   * accepts the authorization only when that is its own current or retired request key (docs/DESIGN.md §10).
   */
  readonly request_key_id: string;
}

/** The operator's signed, expiring authorization of exact plan steps (docs/DESIGN.md §6); proof outside the payload. */
export interface PlanAuthorizationV2 {
  readonly kind: typeof ArtifactKind.PLAN_AUTHORIZATION;
  readonly version: 2;
  readonly payload: PlanAuthorizationV2Payload;
  readonly proof: Proof;
}

const stepSchema = z.strictObject({ step_id: safeTokenSchema, execution_intent_digest: hex64Schema });

/** Steps must already be in the one canonical order: strictly increasing step ids (so no repeats). */
function stepsCanonical(steps: readonly { step_id: string }[]): boolean {
  for (let i = 1; i < steps.length; i++) {
    const prev = steps[i - 1];
    const cur = steps[i];
    if (prev === undefined || cur === undefined || !(prev.step_id < cur.step_id)) return false;
  }
  return true;
}

export const planAuthorizationV2Schema = signedDocumentSchema(
  ArtifactKind.PLAN_AUTHORIZATION,
  z.strictObject({
    authorization_id: safeTokenSchema,
    plan_digest: hex64Schema,
    steps: z.array(stepSchema).min(1).max(64).refine(stepsCanonical, { message: 'steps must be sorted by step_id without repeats' }),
    risk_class: riskClassSchema,
    request_key_id: hex64Schema,
    ...signatureFieldsShape,
  }),
);

export interface PlanAuthorizationV2Input {
  /** A safe token; default a fresh random UUID. It is the one-time consumption key. */
  readonly authorizationId?: string;
  readonly planDigest: string;
  readonly steps: readonly PlanStepBinding[];
  readonly riskClass: RiskClass;
  /** The key id of the server request key whose request this answers (the server's own, for a pre-signed one). */
  readonly requestKeyId: string;
  readonly issuedAt: number;
  readonly expiresAt: number;
}

/** Builds and signs a PlanAuthorizationV2 with an operator key (the signer's side). */
export function createPlanAuthorizationV2(input: PlanAuthorizationV2Input, authorityKey: SigningKey): PlanAuthorizationV2 {
  assertObject(input, 'createPlanAuthorizationV2: "input"');
  const payload = {
    authorization_id: input.authorizationId ?? randomUUID(),
    plan_digest: input.planDigest,
    steps: sortedStepBindings(input.steps),
    risk_class: input.riskClass,
    request_key_id: input.requestKeyId,
    ...signatureFieldsOf(authorityKey, input.issuedAt, input.expiresAt),
  };
  return signPayload(
    ArtifactKind.PLAN_AUTHORIZATION,
    planAuthorizationV2Schema.shape.payload,
    payload,
    authorityKey,
  ) as PlanAuthorizationV2;
}

/**
 * Signs the authorization a (verified) pending request asks for: its plan digest, its one step bound to its
 * execution-intent digest, its risk class, its requested expiry, and the id of the server key that signed it.
 */
export function createPlanAuthorizationFromRequest(
  request: PendingAuthorizationRequest,
  authorityKey: SigningKey,
  options: { issuedAt: number; authorizationId?: string },
): PlanAuthorizationV2 {
  const p = request.payload;
  return createPlanAuthorizationV2(
    {
      ...(options.authorizationId === undefined ? {} : { authorizationId: options.authorizationId }),
      planDigest: p.plan_digest,
      steps: [{ step_id: p.step_id, execution_intent_digest: p.execution_intent_digest }],
      riskClass: p.risk_class,
      requestKeyId: p.key_id,
      issuedAt: options.issuedAt,
      expiresAt: p.expires_at,
    },
    authorityKey,
  );
}
