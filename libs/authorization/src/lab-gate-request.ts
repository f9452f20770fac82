import { z } from 'zod';
import { applianceBindingDigest, applianceBindingSchema, parseApplianceBinding } from './appliance-binding.js';
import type { ApplianceBinding } from './appliance-binding.js';
import { ArtifactKind } from './artifact-kind.js';
import { ArtifactVerificationError } from './artifact-verification-error.js';
import { assertObject } from '@pfsense-mcp/foundation';
import { hex64Schema, safeTokenSchema } from './field-schemas.js';
import { labGateScopeShape, withDeadlineIsExpiry } from './lab-gate-scope.js';
import type { Proof } from './field-schemas.js';
import type { SigningKey } from './signing-message.js';
import { signPayload, signatureFieldsOf } from './sign-payload.js';
import { signatureFieldsShape, signedDocumentSchema } from './signed-document-schema.js';
import type { SignatureFields } from './signed-document-schema.js';

export interface LabGateRequestPayload extends SignatureFields {
  readonly gate_id: string;
  readonly appliance: ApplianceBinding;
  readonly appliance_binding_digest: string;
  readonly candidate_alias: string;
  readonly scenarios: readonly string[];
  /** Absolute UTC ms after which no lab action may start; equal to expires_at. */
  readonly deadline: number;
}

/**
 * Written by the lab runner (signed with its own request key, role `server-request`) before it may touch a
 * disposable test appliance: which appliance, which candidate alias, which scenarios, until when.
 */
export interface LabGateRequest {
  readonly kind: typeof ArtifactKind.LAB_GATE_REQUEST;
  readonly version: 1;
  readonly payload: LabGateRequestPayload;
  readonly proof: Proof;
}

export const labGateRequestSchema = signedDocumentSchema(
  ArtifactKind.LAB_GATE_REQUEST,
  withDeadlineIsExpiry(
    z.strictObject({
      gate_id: safeTokenSchema,
      appliance: applianceBindingSchema,
      appliance_binding_digest: hex64Schema,
      ...labGateScopeShape,
      ...signatureFieldsShape,
    }),
  ),
);

export interface LabGateRequestInput {
  readonly gateId: string;
  readonly appliance: ApplianceBinding;
  readonly candidateAlias: string;
  /** Scenario ids (sorted and deduplicated here). */
  readonly scenarios: readonly string[];
  readonly issuedAt: number;
  /** The absolute deadline, integer UTC ms. */
  readonly deadline: number;
}

/** Builds and signs a pending lab gate request with the runner's own request key. */
export function createLabGateRequest(input: LabGateRequestInput, requestKey: SigningKey): LabGateRequest {
  assertObject(input, 'createLabGateRequest: "input"');
  if (!Array.isArray(input.scenarios)) throw new TypeError('createLabGateRequest: "scenarios" must be an array');
  const appliance = parseApplianceBinding(input.appliance);
  const payload = {
    gate_id: input.gateId,
    appliance,
    appliance_binding_digest: applianceBindingDigest(appliance),
    candidate_alias: input.candidateAlias,
    scenarios: [...new Set(input.scenarios)].sort(),
    deadline: input.deadline,
    ...signatureFieldsOf(requestKey, input.issuedAt, input.deadline),
  };
  return signPayload(ArtifactKind.LAB_GATE_REQUEST, labGateRequestSchema.shape.payload, payload, requestKey) as LabGateRequest;
}

/** Recomputes the request's appliance binding digest from the facts it shows. */
export function checkLabGateRequestDigests(request: LabGateRequest): void {
  if (applianceBindingDigest(request.payload.appliance) !== request.payload.appliance_binding_digest) {
    throw new ArtifactVerificationError('DIGEST_MISMATCH', request.kind, 'appliance binding digest does not match the appliance');
  }
}
