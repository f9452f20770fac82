import { randomUUID } from 'node:crypto';
import { checkReviewBounds } from './alias-state-bounds.js';
import { z } from 'zod';
import type { ApplianceBinding } from './appliance-binding.js';
import { ArtifactKind } from './artifact-kind.js';
import { assertObject } from '@pfsense-mcp/foundation';
import { writeReviewSchema, safeTokenSchema, stateVersionSchema } from './field-schemas.js';
import type { WriteReview, Proof } from './field-schemas.js';
import { requestApplianceFacts, requestApplianceFactsShape } from './request-appliance-facts.js';
import type { RequestApplianceFacts } from './request-appliance-facts.js';
import type { SigningKey } from './signing-message.js';
import { signPayload, signatureFieldsOf } from './sign-payload.js';
import { signatureFieldsShape, signedDocumentSchema } from './signed-document-schema.js';
import type { SignatureFields } from './signed-document-schema.js';

// ---- pending (server-signed) --------------------------------------------------------------------------

export interface PendingReleaseRequestPayload extends SignatureFields, RequestApplianceFacts {
  readonly contract_id: string;
  readonly operation_id: string;
  readonly state_version: number;
  readonly review: WriteReview;
}

/** Asks the operator to release the target reservation a ROLLBACK_FAILED contract still holds. */
export interface PendingReleaseRequest {
  readonly kind: typeof ArtifactKind.RELEASE_REQUEST;
  readonly version: 1;
  readonly payload: PendingReleaseRequestPayload;
  readonly proof: Proof;
}

export const pendingReleaseRequestSchema = signedDocumentSchema(
  ArtifactKind.RELEASE_REQUEST,
  z.strictObject({
    contract_id: safeTokenSchema,
    operation_id: safeTokenSchema,
    state_version: stateVersionSchema,
    review: writeReviewSchema,
    ...requestApplianceFactsShape,
    ...signatureFieldsShape,
  }),
);

export interface PendingReleaseRequestInput {
  readonly contractId: string;
  readonly operationId: string;
  readonly stateVersion: number;
  readonly review: WriteReview;
  /** The appliance the contract is bound to (its digest is in the contract's execution intent). */
  readonly appliance: ApplianceBinding;
  /** The contract's target_fingerprint, as stored. */
  readonly targetFingerprint: string;
  /** The contract's intent_digest, as stored. */
  readonly intentDigest: string;
  readonly issuedAt: number;
  readonly expiresAt: number;
}

export function createPendingReleaseRequest(input: PendingReleaseRequestInput, serverKey: SigningKey): PendingReleaseRequest {
  assertObject(input, 'createPendingReleaseRequest: "input"');
  const payload = {
    contract_id: input.contractId,
    operation_id: input.operationId,
    state_version: input.stateVersion,
    review: input.review,
    ...requestApplianceFacts(input),
    ...signatureFieldsOf(serverKey, input.issuedAt, input.expiresAt),
  };
  checkReviewBounds(payload.review);
  return signPayload(ArtifactKind.RELEASE_REQUEST, pendingReleaseRequestSchema.shape.payload, payload, serverKey) as PendingReleaseRequest;
}

// ---- signed release (operator, role reconciliation) -----------------------------------------------------

export interface ReservationReleasePayload extends SignatureFields {
  readonly release_id: string;
  readonly contract_id: string;
  readonly operation_id: string;
  readonly state_version: number;
}

/** The signed, audited release of a ROLLBACK_FAILED reservation (docs/DESIGN.md §3). */
export interface ReservationRelease {
  readonly kind: typeof ArtifactKind.RELEASE;
  readonly version: 1;
  readonly payload: ReservationReleasePayload;
  readonly proof: Proof;
}

export const reservationReleaseSchema = signedDocumentSchema(
  ArtifactKind.RELEASE,
  z.strictObject({
    release_id: safeTokenSchema,
    contract_id: safeTokenSchema,
    operation_id: safeTokenSchema,
    state_version: stateVersionSchema,
    ...signatureFieldsShape,
  }),
);

export function createReservationRelease(
  request: PendingReleaseRequest,
  authorityKey: SigningKey,
  options: { issuedAt: number; releaseId?: string },
): ReservationRelease {
  const p = request.payload;
  const payload = {
    release_id: options.releaseId ?? randomUUID(),
    contract_id: p.contract_id,
    operation_id: p.operation_id,
    state_version: p.state_version,
    ...signatureFieldsOf(authorityKey, options.issuedAt, p.expires_at),
  };
  return signPayload(ArtifactKind.RELEASE, reservationReleaseSchema.shape.payload, payload, authorityKey) as ReservationRelease;
}
