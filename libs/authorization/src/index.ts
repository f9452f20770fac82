// Public API of @pfsense-mcp/authorization: signed artifact formats, builders, file encoding and pure
// verification checks. Imports only @pfsense-mcp/canonical and @pfsense-mcp/crypto (plus zod).
export { ArtifactFormatError } from './artifact-format-error.js';
export type { ArtifactFormatErrorCode } from './artifact-format-error.js';
export { ArtifactVerificationError } from './artifact-verification-error.js';
export type { ArtifactVerificationErrorCode } from './artifact-verification-error.js';
export {
  ARTIFACT_RULES,
  ArtifactKind,
  INBOX_ANSWER_KINDS,
  PENDING_REQUEST_KINDS,
  isArtifactKind,
  isReadableVersion,
} from './artifact-kind.js';
export { PFREST_ALIAS_UPDATE_NOTE } from './config-history-corroboration.js';
export type { ConfigHistoryCorroboration } from './config-history-corroboration.js';
export type { SignedArtifactKind } from './artifact-kind.js';
export {
  ALIAS_STATE_CANONICAL_LIMITS,
  ARTIFACT_CANONICAL_LIMITS,
  MAX_ALIAS_MEMBERS,
  MAX_ALIAS_STATE_BYTES,
  MAX_ARTIFACT_BYTES,
  MAX_ARTIFACT_LIFETIME_MS,
  MAX_CLOCK_SKEW_MS,
} from './artifact-limits.js';
export type { Artifact, ArtifactOfKind, PendingRequest, SignedArtifact } from './artifact.js';
export { checkAliasStateBounds } from './alias-state-bounds.js';
export type {
  AliasChangeReview,
  AliasEntriesChangeReview,
  AliasEntriesStateFormat,
  AliasRuleUseState,
  AliasState,
  Proof,
  RiskClass,
  WriteReview,
  WriteState,
} from './field-schemas.js';
export { MAX_ALIAS_RULE_USES, isAliasEntriesChangeReview } from './field-schemas.js';
export type { SignatureFields } from './signed-document-schema.js';
export { artifactDigestOf, keyIdOfSigningKey, signingDigestBytes } from './signing-message.js';
export type { SigningKey } from './signing-message.js';
export { applianceBindingDigest, createApplianceBinding, normalizeApplianceBaseUrl, parseApplianceBinding } from './appliance-binding.js';
export type { ApplianceBinding } from './appliance-binding.js';
export type { RequestApplianceFacts } from './request-appliance-facts.js';
export { planDigestOf, sortedStepBindings } from './plan-digest.js';
export type { PlanStepBinding } from './plan-digest.js';
export { createPreparedExecutionIntentV1, executionIntentDigest, parsePreparedExecutionIntent } from './prepared-execution-intent.js';
export type { PreparedExecutionIntentV1, PreparedExecutionIntentV1Payload } from './prepared-execution-intent.js';
export { checkAuthorizationRequestDigests, createPendingAuthorizationRequest } from './pending-authorization-request.js';
export type {
  PendingAuthorizationRequest,
  PendingAuthorizationRequestInput,
  PendingAuthorizationRequestPayload,
} from './pending-authorization-request.js';
export { createPlanAuthorizationFromRequest, createPlanAuthorizationV2 } from './plan-authorization-v2.js';
export type { PlanAuthorizationV2, PlanAuthorizationV2Input, PlanAuthorizationV2Payload } from './plan-authorization-v2.js';
export { checkConfirmationRequestDigests, createPendingConfirmationRequest } from './pending-confirmation-request.js';
export type {
  PendingConfirmationRequest,
  PendingConfirmationRequestInput,
  PendingConfirmationRequestPayload,
} from './pending-confirmation-request.js';
export { createConfirmationEvidence } from './confirmation-evidence.js';
export type { ConfirmationEvidence, ConfirmationEvidencePayload } from './confirmation-evidence.js';
export {
  MAX_PF_TABLE_DIFFERENCES,
  ReconciliationOrigin,
  ReconciliationOutcome,
  createPendingReconciliationRequest,
  createReconciliationEvidence,
  resolutionOutcomeOf,
} from './reconciliation-evidence.js';
export type {
  PendingReconciliationRequest,
  PendingReconciliationRequestInput,
  PendingReconciliationRequestPayload,
  PendingReconciliationRequestV1,
  PendingReconciliationRequestV1Payload,
  PendingReconciliationRequestV2,
  PendingReconciliationRequestV3,
  PendingReconciliationRequestV3Payload,
  PfTableState,
  ReconciliationEvidence,
  ReconciliationEvidencePayload,
  ResolutionOutcome,
} from './reconciliation-evidence.js';
export { createPendingReleaseRequest, createReservationRelease } from './reservation-release.js';
export type {
  PendingReleaseRequest,
  PendingReleaseRequestInput,
  PendingReleaseRequestPayload,
  ReservationRelease,
  ReservationReleasePayload,
} from './reservation-release.js';
export { createPendingRollbackRequest, createRollbackAuthorization } from './rollback-authorization.js';
export type {
  PendingRollbackRequest,
  PendingRollbackRequestInput,
  PendingRollbackRequestPayload,
  RollbackAuthorization,
  RollbackAuthorizationPayload,
} from './rollback-authorization.js';
export { checkLabGateRequestDigests, createLabGateRequest } from './lab-gate-request.js';
export type { LabGateRequest, LabGateRequestInput, LabGateRequestPayload } from './lab-gate-request.js';
export { createLabGateReceipt } from './lab-gate-receipt.js';
export type { LabGateReceipt, LabGateReceiptPayload } from './lab-gate-receipt.js';
export { verifyLabGateReceipt, verifyLabGateRequest } from './verify-lab-gate.js';
export type { ExpectedLabGate } from './verify-lab-gate.js';
export { encodeArtifact, parseArtifact, parseArtifactOfKind, validateArtifactDocument } from './parse-artifact.js';
export { verifyArtifactSignature } from './verify-artifact-signature.js';
export { checkCurrentness } from './check-currentness.js';
export {
  checkConfirmationBinding,
  checkAnswersThisServer,
  checkPlanAuthorizationBinding,
  checkReconciliationBinding,
  checkReleaseBinding,
} from './check-bindings.js';
export type {
  ExpectedConfirmationBinding,
  ExpectedPlanStep,
  ExpectedReconciliationBinding,
  ExpectedReleaseBinding,
} from './check-bindings.js';
export { verifyPlanAuthorization } from './verify-plan-authorization.js';
export { verifyConfirmationEvidence } from './verify-confirmation-evidence.js';
export type { VerifiedConfirmationFacts } from './verify-confirmation-evidence.js';
export { verifyReconciliationEvidence } from './verify-reconciliation-evidence.js';
export type { VerifiedResolutionFacts } from './verify-reconciliation-evidence.js';
export { verifyReservationRelease } from './verify-reservation-release.js';
export type { VerifiedReleaseFacts } from './verify-reservation-release.js';
export { verifyRollbackAuthorization } from './verify-rollback-authorization.js';
export type { ExpectedRollbackBinding, VerifiedRollbackAuthorization } from './verify-rollback-authorization.js';
export { verifyPendingRequest } from './verify-pending-request.js';
export {
  EXCHANGE_ANSWERS_FOLDER,
  EXCHANGE_REQUESTS_FOLDER,
  exchangeAnswerName,
  exchangeRequestFileName,
  isExchangeRequestName,
  requestNameOfAnswer,
} from './exchange-file-names.js';
export type { AuthorizationError } from './authorization-error.js';
export {
  CONFIG_HISTORY_CLASSES,
  CONFIG_HISTORY_UNKNOWN_REASONS,
  MAX_CONFIG_HISTORY_TIMES,
  checkConfigHistoryInvariants,
  configHistoryCoreShape,
  configHistoryCountSchema,
  unixSecondsSchema,
} from './config-history-invariants.js';
export type { ConfigHistoryClass, ConfigHistoryUnknownReason } from './config-history-invariants.js';
