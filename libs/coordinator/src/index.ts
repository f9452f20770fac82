// Public API of @pfsense-mcp/coordinator: the alias-description operation driver (one operation across calls)
// and the gatekeeper it owns (authorization → contract → executor), its write facade, the artifact
// inbox/outbox, the contract state → operation status table, and the store's evidence verifiers. Explicit
// named exports only.
export { AliasDescriptionOperationDriver } from './alias-description-operation-driver.js';
export type { AliasDescriptionOperationDriverOptions } from './alias-description-operation-driver.js';
export type { AliasDescriptionChangeInput, AliasDescriptionChangeResult } from './alias-description-change.js';
export type { AliasDescriptionGatekeeper, AuthorizeAndCreateRequest, ConsumptionLedger } from './alias-description-gatekeeper.js';
export type { RecoveryKind } from './recovery-kinds.js';
export { createAliasDescriptionWriteFacade } from './alias-description-write-facade.js';
export type { AliasDescriptionWriteFacade, ArtifactCounts } from './alias-description-write-facade.js';
export { writeOperationsView, pendingRequestNameOf } from './write-operations-view.js';
export type { RequestedOperation, WriteOperationView, WriteOperationsPage, WriteOperationsQuery } from './write-operations-view.js';
export { CLOSED_STATUSES, OperationStatus, STATUS_OF_STATE, isClosed, statusOfContract } from './operation-outcome.js';
export { ArtifactDirectory } from './artifact-directory.js';
export { WRITE_REQUEST_LIMITS } from './write-request-limits.js';
export { authorizationRequestName, parseAuthorizationRequestName } from './authorization-request-name.js';
export type { AuthorizationRequestName } from './authorization-request-name.js';
export type { ArtifactDirectoryOptions, ArtifactEntry } from './artifact-directory.js';
export { ArtifactFileError } from './artifact-file-error.js';
export type { ArtifactFileErrorCode } from './artifact-file-error.js';
export { CoordinatorRefusedError } from './coordinator-refused-error.js';
export { CoordinatorInputError } from './coordinator-input-error.js';
export type { CoordinatorInputCode } from './coordinator-input-error.js';
export { MemoryRefusalAudit, RefusalGate } from './refusal-audit.js';
export type { RefusalAuditEvent, RefusalAuditSink, RefusalClass } from './refusal-audit.js';
export { StoreRefusalAudit } from './store-refusal-audit.js';
export type { RefusalContext, RefusalRecorder } from './refusal-recorder.js';
export { ApplianceIdentityError, SYSTEM_HASYNC_PATH, SYSTEM_STATUS_PATH, readApplianceBinding } from './read-appliance-binding.js';
export type { ApplianceConfig } from './read-appliance-binding.js';
export { aliasAttemptStepId, aliasOperationId } from './alias-operation-id.js';
export { prepareAliasExecutionIntent } from './prepare-alias-execution-intent.js';
export type { PreparedAliasChange } from './prepare-alias-execution-intent.js';
export { createStoreEvidenceVerifiers } from './store-evidence-verifiers.js';
export type { StoreEvidenceVerifiers } from './store-evidence-verifiers.js';
export { inboxArtifactName, nameCouldConcern, parseInboxArtifactName } from './inbox-artifact-name.js';
export type { InboxArtifactName, InboxWant } from './inbox-artifact-name.js';
