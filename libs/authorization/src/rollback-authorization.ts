import { randomUUID } from 'node:crypto';
import { assertObject } from '@pfsense-mcp/foundation';
import { z } from 'zod';
import { checkReviewBounds } from './alias-state-bounds.js';
import type { ApplianceBinding } from './appliance-binding.js';
import { ArtifactKind } from './artifact-kind.js';
import { hex64Schema, safeTokenSchema, stateVersionSchema, writeReviewSchema } from './field-schemas.js';
import type { Proof, WriteReview } from './field-schemas.js';
import { requestApplianceFacts, requestApplianceFactsShape } from './request-appliance-facts.js';
import type { RequestApplianceFacts } from './request-appliance-facts.js';
import { signPayload, signatureFieldsOf } from './sign-payload.js';
import { signatureFieldsShape, signedDocumentSchema } from './signed-document-schema.js';
import type { SignatureFields } from './signed-document-schema.js';
import { artifactDigestOf } from './signing-message.js';
import type { SigningKey } from './signing-message.js';

// Undoing a block is itself a firewall change (docs/DESIGN.md §5): the server asks (server-signed request, in the
// outbox) and the operator answers with a rollback authorization under the confirmation role — bound to the
// contract, its VERIFIED state version and the fingerprint the executor sealed there, consumed once.

// ---- pending (server-signed) --------------------------------------------------------------------------

export interface PendingRollbackRequestPayload extends SignatureFields, RequestApplianceFacts {
  readonly contract_id: string;
  readonly operation_id: string;
  /** The VERIFIED state version the rollback would leave (the authorization is bound to it). */
  readonly state_version: number;
  /** The fingerprint the executor sealed at VERIFIED: the alias as the change left it, which the rollback undoes. */
  readonly verified_target_fingerprint: string;
  /** The forward change's review (pre-state and change); the rollback restores its pre-state. */
  readonly review: WriteReview;
}

/** Asks the operator to authorize the rollback of one VERIFIED contract. */
export interface PendingRollbackRequest {
  readonly kind: typeof ArtifactKind.ROLLBACK_REQUEST;
  readonly version: 1;
  readonly payload: PendingRollbackRequestPayload;
  readonly proof: Proof;
}

export const pendingRollbackRequestSchema = signedDocumentSchema(
  ArtifactKind.ROLLBACK_REQUEST,
  z.strictObject({
    contract_id: safeTokenSchema,
    operation_id: safeTokenSchema,
    state_version: stateVersionSchema,
    verified_target_fingerprint: hex64Schema,
    review: writeReviewSchema,
    ...requestApplianceFactsShape,
    ...signatureFieldsShape,
  }),
);

export interface PendingRollbackRequestInput {
  readonly contractId: string;
  readonly operationId: string;
  readonly stateVersion: number;
  readonly verifiedTargetFingerprint: string;
  readonly review: WriteReview;
  /** The appliance the contract is bound to (its digest is in the contract's execution intent). */
  readonly appliance: ApplianceBinding;
  /** The contract's target_fingerprint (of the pre-state), as stored. */
  readonly targetFingerprint: string;
  /** The contract's intent_digest, as stored. */
  readonly intentDigest: string;
  readonly issuedAt: number;
  readonly expiresAt: number;
}

export function createPendingRollbackRequest(input: PendingRollbackRequestInput, serverKey: SigningKey): PendingRollbackRequest {
  assertObject(input, 'createPendingRollbackRequest: "input"');
  const payload = {
    contract_id: input.contractId,
    operation_id: input.operationId,
    state_version: input.stateVersion,
    verified_target_fingerprint: input.verifiedTargetFingerprint,
    review: input.review,
    ...requestApplianceFacts(input),
    ...signatureFieldsOf(serverKey, input.issuedAt, input.expiresAt),
  };
  checkReviewBounds(payload.review);
  return signPayload(
    ArtifactKind.ROLLBACK_REQUEST,
    pendingRollbackRequestSchema.shape.payload,
    payload,
    serverKey,
  ) as PendingRollbackRequest;
}

// ---- signed rollback authorization (operator, role confirmation) ----------------------------------------

export interface RollbackAuthorizationPayload extends SignatureFields {
  /** Consumed once (the consumption ledger), atomically with VERIFIED → ROLLING_BACK. */
  readonly rollback_authorization_id: string;
  readonly contract_id: string;
  readonly operation_id: string;
  readonly state_version: number;
  readonly verified_target_fingerprint: string;
  /** The digest of the server's request this answers (what the operator reviewed). */
  readonly request_digest: string;
}

/** The operator's signed authorization of one rollback (docs/DESIGN.md §5). */
export interface RollbackAuthorization {
  readonly kind: typeof ArtifactKind.ROLLBACK_AUTHORIZATION;
  readonly version: 1;
  readonly payload: RollbackAuthorizationPayload;
  readonly proof: Proof;
}

export const rollbackAuthorizationSchema = signedDocumentSchema(
  ArtifactKind.ROLLBACK_AUTHORIZATION,
  z.strictObject({
    rollback_authorization_id: safeTokenSchema,
    contract_id: safeTokenSchema,
    operation_id: safeTokenSchema,
    state_version: stateVersionSchema,
    verified_target_fingerprint: hex64Schema,
    request_digest: hex64Schema,
    ...signatureFieldsShape,
  }),
);

/** Signs the rollback a verified request asks for; it expires when the request does. */
export function createRollbackAuthorization(
  request: PendingRollbackRequest,
  authorityKey: SigningKey,
  options: { issuedAt: number; rollbackAuthorizationId?: string },
): RollbackAuthorization {
  const p = request.payload;
  const payload = {
    rollback_authorization_id: options.rollbackAuthorizationId ?? randomUUID(),
    contract_id: p.contract_id,
    operation_id: p.operation_id,
    state_version: p.state_version,
    verified_target_fingerprint: p.verified_target_fingerprint,
    request_digest: artifactDigestOf(request),
    ...signatureFieldsOf(authorityKey, options.issuedAt, p.expires_at),
  };
  return signPayload(
    ArtifactKind.ROLLBACK_AUTHORIZATION,
    rollbackAuthorizationSchema.shape.payload,
    payload,
    authorityKey,
  ) as RollbackAuthorization;
}
