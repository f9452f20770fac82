import { randomUUID } from 'node:crypto';
import { checkAliasStateBounds, checkReviewBounds } from './alias-state-bounds.js';
import { z } from 'zod';
import type { ApplianceBinding } from './appliance-binding.js';
import { ArtifactKind } from './artifact-kind.js';
import { assertObject } from '@pfsense-mcp/foundation';
import { writeReviewSchema, writeStateSchema, hex64Schema, locatorSchema, safeTokenSchema, stateVersionSchema } from './field-schemas.js';
import type { WriteReview, WriteState, Proof } from './field-schemas.js';
import { requestApplianceFacts, requestApplianceFactsShape } from './request-appliance-facts.js';
import type { RequestApplianceFacts } from './request-appliance-facts.js';
import type { SigningKey } from './signing-message.js';
import { signPayload, signatureFieldsOf } from './sign-payload.js';
import { signatureFieldsShape, signedDocumentSchema } from './signed-document-schema.js';
import type { SignatureFields } from './signed-document-schema.js';
import { configHistoryCorroborationSchema } from './config-history-corroboration.js';
import type { ConfigHistoryCorroboration } from './config-history-corroboration.js';

export const ReconciliationOrigin = Object.freeze({ EXECUTING: 'EXECUTING', ROLLING_BACK: 'ROLLING_BACK' } as const);
export type ReconciliationOrigin = (typeof ReconciliationOrigin)[keyof typeof ReconciliationOrigin];
export const ReconciliationOutcome = Object.freeze({ APPLIED: 'APPLIED', NOT_APPLIED: 'NOT_APPLIED' } as const);
export type ReconciliationOutcome = (typeof ReconciliationOutcome)[keyof typeof ReconciliationOutcome];

/** The store's four resolutions (docs/DESIGN.md §3), from (origin, outcome). There is no "unknown": not signing is. */
export type ResolutionOutcome = 'FORWARD_APPLIED' | 'FORWARD_NOT_APPLIED' | 'ROLLBACK_APPLIED' | 'ROLLBACK_NOT_APPLIED';

export function resolutionOutcomeOf(origin: ReconciliationOrigin, outcome: ReconciliationOutcome): ResolutionOutcome {
  if (origin !== 'EXECUTING' && origin !== 'ROLLING_BACK')
    throw new TypeError('resolutionOutcomeOf: "origin" must be EXECUTING or ROLLING_BACK');
  if (outcome !== 'APPLIED' && outcome !== 'NOT_APPLIED')
    throw new TypeError('resolutionOutcomeOf: "outcome" must be APPLIED or NOT_APPLIED');
  return `${origin === 'EXECUTING' ? 'FORWARD' : 'ROLLBACK'}_${outcome}`;
}

const originSchema = z.enum(['EXECUTING', 'ROLLING_BACK']);
const outcomeSchema = z.enum(['APPLIED', 'NOT_APPLIED']);

// ---- pending (server-signed) --------------------------------------------------------------------------

export interface PendingReconciliationRequestV1Payload extends SignatureFields, RequestApplianceFacts {
  readonly contract_id: string;
  readonly operation_id: string;
  readonly state_version: number;
  readonly origin: ReconciliationOrigin;
  /** Fingerprint of the target as observed read-only now; null when no single target could be observed. */
  readonly observed_fingerprint: string | null;
  readonly observed_locator: number;
  /** The observed alias itself (for review and recomputation), null with a null fingerprint. */
  readonly observed_state: WriteState | null;
  readonly review: WriteReview;
}

/** v2: v1 plus what pfSense's config history showed after the send (null: nothing was recorded). */
export interface PendingReconciliationRequestPayload extends PendingReconciliationRequestV1Payload {
  readonly config_history: ConfigHistoryCorroboration | null;
}

/** A version-1 request (written before the config-history corroboration existed); still read and signed. */
export interface PendingReconciliationRequestV1 {
  readonly kind: typeof ArtifactKind.RECONCILIATION_REQUEST;
  readonly version: 1;
  readonly payload: PendingReconciliationRequestV1Payload;
  readonly proof: Proof;
}

export interface PendingReconciliationRequestV2 {
  readonly kind: typeof ArtifactKind.RECONCILIATION_REQUEST;
  readonly version: 2;
  readonly payload: PendingReconciliationRequestPayload;
  readonly proof: Proof;
}

/**
 * What the server saw of the alias's pf table with the observation (docs/DESIGN.md §5), for a write that applies
 * the filter: READ with the table's entry count and how it differs from the observed alias (the first
 * MAX_PF_TABLE_DIFFERENCES of each difference listed), MISSING (pf has no such table) or UNREADABLE.
 */
export interface PfTableState {
  readonly status: 'READ' | 'MISSING' | 'UNREADABLE';
  readonly entry_count: number | null;
  /** Entries of the observed alias the table lacks, and entries of the table the alias lacks (counts, then the first ones). */
  readonly missing_count: number | null;
  readonly extra_count: number | null;
  readonly missing: readonly string[];
  readonly extra: readonly string[];
}

/** v3: v2 plus the alias's pf table as observed (null for a write that does not apply the filter). */
export interface PendingReconciliationRequestV3Payload extends PendingReconciliationRequestPayload {
  readonly observed_pf_table: PfTableState | null;
}

export interface PendingReconciliationRequestV3 {
  readonly kind: typeof ArtifactKind.RECONCILIATION_REQUEST;
  readonly version: 3;
  readonly payload: PendingReconciliationRequestV3Payload;
  readonly proof: Proof;
}

/** Any readable version: what a reader of an outbox or the signer holds. This build writes only v3. */
export type PendingReconciliationRequest = PendingReconciliationRequestV1 | PendingReconciliationRequestV2 | PendingReconciliationRequestV3;

/** Entries listed of each difference between the pf table and the alias. */
export const MAX_PF_TABLE_DIFFERENCES = 32;

const countSchema = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).nullable();
const pfTableStateSchema = z
  .strictObject({
    status: z.enum(['READ', 'MISSING', 'UNREADABLE']),
    entry_count: countSchema,
    missing_count: countSchema,
    extra_count: countSchema,
    missing: z.array(z.string().min(1).max(64)).max(MAX_PF_TABLE_DIFFERENCES),
    extra: z.array(z.string().min(1).max(64)).max(MAX_PF_TABLE_DIFFERENCES),
  })
  .refine(
    (t) =>
      t.status === 'READ'
        ? t.entry_count !== null &&
          t.missing_count !== null &&
          t.extra_count !== null &&
          t.missing.length === Math.min(t.missing_count, MAX_PF_TABLE_DIFFERENCES) &&
          t.extra.length === Math.min(t.extra_count, MAX_PF_TABLE_DIFFERENCES)
        : t.entry_count === null && t.missing_count === null && t.extra_count === null && t.missing.length === 0 && t.extra.length === 0,
    { message: 'counts and lists agree with the status', path: ['status'] },
  );

const v1PayloadShape = {
  contract_id: safeTokenSchema,
  operation_id: safeTokenSchema,
  state_version: stateVersionSchema,
  origin: originSchema,
  observed_fingerprint: hex64Schema.nullable(),
  observed_locator: locatorSchema,
  observed_state: writeStateSchema.nullable(),
  review: writeReviewSchema,
  ...requestApplianceFactsShape,
  ...signatureFieldsShape,
};

const bothOrNeither = {
  message: 'observed_fingerprint and observed_state are both present or both null',
  path: ['observed_state'],
};

export const pendingReconciliationRequestV1Schema = signedDocumentSchema(
  ArtifactKind.RECONCILIATION_REQUEST,
  z.strictObject(v1PayloadShape).refine((v) => (v.observed_fingerprint === null) === (v.observed_state === null), bothOrNeither),
  1,
);

export const pendingReconciliationRequestV2Schema = signedDocumentSchema(
  ArtifactKind.RECONCILIATION_REQUEST,
  z
    .strictObject({ ...v1PayloadShape, config_history: configHistoryCorroborationSchema.nullable() })
    .refine((v) => (v.observed_fingerprint === null) === (v.observed_state === null), bothOrNeither),
  2,
);

export const pendingReconciliationRequestSchema = signedDocumentSchema(
  ArtifactKind.RECONCILIATION_REQUEST,
  z
    .strictObject({
      ...v1PayloadShape,
      config_history: configHistoryCorroborationSchema.nullable(),
      observed_pf_table: pfTableStateSchema.nullable(),
    })
    .refine((v) => (v.observed_fingerprint === null) === (v.observed_state === null), bothOrNeither),
);

export interface PendingReconciliationRequestInput {
  readonly contractId: string;
  readonly operationId: string;
  readonly stateVersion: number;
  readonly origin: ReconciliationOrigin;
  readonly observedFingerprint: string | null;
  readonly observedLocator: number;
  readonly observedState: WriteState | null;
  readonly review: WriteReview;
  /** The config-history corroboration recorded with the send (null when none was recorded). */
  readonly configHistory: ConfigHistoryCorroboration | null;
  /** The alias's pf table as observed (null for a write that does not apply the filter). */
  readonly observedPfTable: PfTableState | null;
  /** The appliance the contract is bound to (its digest is in the contract's execution intent). */
  readonly appliance: ApplianceBinding;
  /** The contract's target_fingerprint, as stored. */
  readonly targetFingerprint: string;
  /** The contract's intent_digest, as stored. */
  readonly intentDigest: string;
  readonly issuedAt: number;
  readonly expiresAt: number;
}

/** Builds and signs a pending reconciliation request, version 3 (from executor.observeReconciliationTarget). */
export function createPendingReconciliationRequest(
  input: PendingReconciliationRequestInput,
  serverKey: SigningKey,
): PendingReconciliationRequestV3 {
  assertObject(input, 'createPendingReconciliationRequest: "input"');
  if (input.configHistory === undefined)
    throw new TypeError('createPendingReconciliationRequest: "configHistory" must be a corroboration or null');
  if (input.observedPfTable === undefined)
    throw new TypeError('createPendingReconciliationRequest: "observedPfTable" must be a pf table state or null');
  const payload = {
    contract_id: input.contractId,
    operation_id: input.operationId,
    state_version: input.stateVersion,
    origin: input.origin,
    observed_fingerprint: input.observedFingerprint,
    observed_locator: input.observedLocator,
    observed_state: input.observedState,
    review: input.review,
    config_history: input.configHistory,
    observed_pf_table: input.observedPfTable,
    ...requestApplianceFacts(input),
    ...signatureFieldsOf(serverKey, input.issuedAt, input.expiresAt),
  };
  checkReviewBounds(payload.review);
  checkAliasStateBounds(payload.observed_state, 'payload.observed_state');
  return signPayload(
    ArtifactKind.RECONCILIATION_REQUEST,
    pendingReconciliationRequestSchema.shape.payload,
    payload,
    serverKey,
  ) as PendingReconciliationRequestV3;
}

// ---- signed evidence (operator, role reconciliation) ----------------------------------------------------

export interface ReconciliationEvidencePayload extends SignatureFields {
  readonly resolution_id: string;
  readonly contract_id: string;
  readonly operation_id: string;
  readonly state_version: number;
  readonly origin: ReconciliationOrigin;
  readonly outcome: ReconciliationOutcome;
  readonly observed_fingerprint: string | null;
  readonly observed_locator: number;
}

/** The operator's declared outcome for one contract at one observed state version (docs/DESIGN.md §3, §6). */
export interface ReconciliationEvidence {
  readonly kind: typeof ArtifactKind.RECONCILIATION;
  readonly version: 1;
  readonly payload: ReconciliationEvidencePayload;
  readonly proof: Proof;
}

export const reconciliationEvidenceSchema = signedDocumentSchema(
  ArtifactKind.RECONCILIATION,
  z
    .strictObject({
      resolution_id: safeTokenSchema,
      contract_id: safeTokenSchema,
      operation_id: safeTokenSchema,
      state_version: stateVersionSchema,
      origin: originSchema,
      outcome: outcomeSchema,
      observed_fingerprint: hex64Schema.nullable(),
      observed_locator: locatorSchema,
      ...signatureFieldsShape,
    })
    // A forward change declared applied seals the observed fingerprint, so it must be there (docs/DESIGN.md §3).
    .refine((v) => !(v.origin === 'EXECUTING' && v.outcome === 'APPLIED' && v.observed_fingerprint === null), {
      message: 'an applied forward change needs the observed fingerprint',
      path: ['observed_fingerprint'],
    }),
);

/** Signs the operator's outcome for a (verified) pending reconciliation request. */
export function createReconciliationEvidence(
  request: PendingReconciliationRequest,
  authorityKey: SigningKey,
  options: { issuedAt: number; outcome: ReconciliationOutcome; resolutionId?: string },
): ReconciliationEvidence {
  const p = request.payload;
  const payload = {
    resolution_id: options.resolutionId ?? randomUUID(),
    contract_id: p.contract_id,
    operation_id: p.operation_id,
    state_version: p.state_version,
    origin: p.origin,
    outcome: options.outcome,
    observed_fingerprint: p.observed_fingerprint,
    observed_locator: p.observed_locator,
    ...signatureFieldsOf(authorityKey, options.issuedAt, p.expires_at),
  };
  return signPayload(
    ArtifactKind.RECONCILIATION,
    reconciliationEvidenceSchema.shape.payload,
    payload,
    authorityKey,
  ) as ReconciliationEvidence;
}
