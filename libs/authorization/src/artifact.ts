import type { z } from 'zod';
import { ARTIFACT_RULES, ArtifactKind } from './artifact-kind.js';
import { labGateReceiptSchema } from './lab-gate-receipt.js';
import type { LabGateReceipt } from './lab-gate-receipt.js';
import { labGateRequestSchema } from './lab-gate-request.js';
import type { LabGateRequest } from './lab-gate-request.js';
import { confirmationEvidenceSchema } from './confirmation-evidence.js';
import type { ConfirmationEvidence } from './confirmation-evidence.js';
import { pendingAuthorizationRequestSchema } from './pending-authorization-request.js';
import type { PendingAuthorizationRequest } from './pending-authorization-request.js';
import { pendingConfirmationRequestSchema } from './pending-confirmation-request.js';
import type { PendingConfirmationRequest } from './pending-confirmation-request.js';
import { planAuthorizationV2Schema } from './plan-authorization-v2.js';
import type { PlanAuthorizationV2 } from './plan-authorization-v2.js';
import { preparedExecutionIntentSchema } from './prepared-execution-intent.js';
import type { PreparedExecutionIntentV1 } from './prepared-execution-intent.js';
import {
  pendingReconciliationRequestSchema,
  pendingReconciliationRequestV1Schema,
  pendingReconciliationRequestV2Schema,
  reconciliationEvidenceSchema,
} from './reconciliation-evidence.js';
import type { PendingReconciliationRequest, ReconciliationEvidence } from './reconciliation-evidence.js';
import { pendingReleaseRequestSchema, reservationReleaseSchema } from './reservation-release.js';
import type { PendingReleaseRequest, ReservationRelease } from './reservation-release.js';
import { pendingRollbackRequestSchema, rollbackAuthorizationSchema } from './rollback-authorization.js';
import type { PendingRollbackRequest, RollbackAuthorization } from './rollback-authorization.js';

/** Every signed artifact this build reads. */
export type SignedArtifact =
  | PendingAuthorizationRequest
  | PlanAuthorizationV2
  | PendingConfirmationRequest
  | ConfirmationEvidence
  | PendingReconciliationRequest
  | ReconciliationEvidence
  | PendingReleaseRequest
  | ReservationRelease
  | PendingRollbackRequest
  | RollbackAuthorization
  | LabGateRequest
  | LabGateReceipt;

/** Server-signed requests (role `server-request`). */
export type PendingRequest =
  PendingAuthorizationRequest | PendingConfirmationRequest | PendingReconciliationRequest | PendingReleaseRequest | PendingRollbackRequest;

/** Every artifact document: the signed ones and the (embeddable) prepared intent. */
export type Artifact = SignedArtifact | PreparedExecutionIntentV1;

/** Artifact type of a kind. */
export type ArtifactOfKind<K extends ArtifactKind> = Extract<Artifact, { kind: K }>;

/** The strict schema of each kind's current version. */
export const ARTIFACT_SCHEMAS: Readonly<Record<ArtifactKind, z.ZodType>> = Object.freeze({
  [ArtifactKind.PREPARED_EXECUTION_INTENT]: preparedExecutionIntentSchema,
  [ArtifactKind.AUTHORIZATION_REQUEST]: pendingAuthorizationRequestSchema,
  [ArtifactKind.PLAN_AUTHORIZATION]: planAuthorizationV2Schema,
  [ArtifactKind.CONFIRMATION_REQUEST]: pendingConfirmationRequestSchema,
  [ArtifactKind.CONFIRMATION]: confirmationEvidenceSchema,
  [ArtifactKind.RECONCILIATION_REQUEST]: pendingReconciliationRequestSchema,
  [ArtifactKind.RECONCILIATION]: reconciliationEvidenceSchema,
  [ArtifactKind.RELEASE_REQUEST]: pendingReleaseRequestSchema,
  [ArtifactKind.RELEASE]: reservationReleaseSchema,
  [ArtifactKind.ROLLBACK_REQUEST]: pendingRollbackRequestSchema,
  [ArtifactKind.ROLLBACK_AUTHORIZATION]: rollbackAuthorizationSchema,
  [ArtifactKind.LAB_GATE_REQUEST]: labGateRequestSchema,
  [ArtifactKind.LAB_GATE_RECEIPT]: labGateReceiptSchema,
});

/** The strict schemas of the older versions this build still reads (ARTIFACT_RULES[kind].olderVersions). */
const OLDER_ARTIFACT_SCHEMAS: Readonly<Partial<Record<ArtifactKind, Readonly<Record<number, z.ZodType>>>>> = Object.freeze({
  [ArtifactKind.RECONCILIATION_REQUEST]: Object.freeze({
    1: pendingReconciliationRequestV1Schema,
    2: pendingReconciliationRequestV2Schema,
  }),
});

/** The schema of one (kind, version) this build reads; the caller has checked the version is readable. */
export function artifactSchemaOf(kind: ArtifactKind, version: number): z.ZodType {
  if (version === ARTIFACT_RULES[kind].version) return ARTIFACT_SCHEMAS[kind];
  const older = OLDER_ARTIFACT_SCHEMAS[kind]?.[version];
  if (older === undefined) throw new TypeError('artifactSchemaOf: not a readable version of this kind');
  return older;
}
