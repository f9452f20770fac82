// Public API of @pfsense-mcp/coordinator: the capability-generic operation driver (one operation across calls,
// through the CapabilityAdapter port and a closed capability registry), its write facade, the artifact
// inbox/outbox, the contract state → operation status table, and the store's evidence verifiers. The
// gatekeeper is the driver's own (not exported). Explicit named exports only.
export { OperationDriver } from './operation-driver.js';
export type { OperationDriverOptions } from './operation-driver-options.js';
export { CapabilityRegistry } from './capability-registry.js';
export type { WriteCapability } from './capability-registry.js';
export type { ChangeInput, ChangeResult } from './change-result.js';
export type { ConsumptionLedger } from './gatekeeper.js';
export type { OperatorRequestKind, RecoveryKind } from './recovery-kinds.js';
export type { ArtifactCounts, WriteFacade } from './write-facade.js';
export { writeOperationsView, pendingRequestOf } from './write-operations-view.js';
export { PendingRequestKind } from './pending-request.js';
export { HumanStep, nextHumanStep } from './next-human-step.js';
export type { PendingRequest } from './pending-request.js';
export type { RequestedOperation, WriteOperationView, WriteOperationsPage, WriteOperationsQuery } from './write-operations-view.js';
export { CLOSED_STATUSES, OperationStatus, STATUS_OF_STATE, isClosed, statusOfContract } from './operation-outcome.js';
export { ArtifactDirectory } from './artifact-directory.js';
export { WRITE_REQUEST_LIMITS } from './write-request-limits.js';
export { authorizationRequestName, parseAuthorizationRequestName } from './authorization-request-name.js';
export type { AuthorizationRequestName } from './authorization-request-name.js';
export type { ArtifactDirectoryOptions, ArtifactEntry } from './artifact-directory.js';
export { ArtifactFileError } from './artifact-file-error.js';
export type { ArtifactFileErrorCode } from './artifact-file-error.js';
export { CoordinatorRefusalError } from './coordinator-refusal-error.js';
export { CoordinatorInputError } from './coordinator-input-error.js';
export type { CoordinatorInputCode } from './coordinator-input-error.js';
export { MemoryRefusalAudit, RefusalGate } from './refusal-audit.js';
export type { RefusalAuditEvent, RefusalAuditSink, RefusalClass } from './refusal-audit.js';
export { StoreRefusalAudit } from './store-refusal-audit.js';
export type { RefusalContext, RefusalRecorder } from './refusal-recorder.js';
export { ApplianceIdentityError, SYSTEM_HASYNC_PATH, SYSTEM_STATUS_PATH, readApplianceBinding } from './read-appliance-binding.js';
export type { ApplianceConfig } from './read-appliance-binding.js';
export { attemptStepId, operationIdOf } from './operation-id.js';
export { prepareExecutionIntent } from './prepare-execution-intent.js';
export type { PreparedChange } from './prepare-execution-intent.js';
export { createStoreEvidenceVerifiers } from './store-evidence-verifiers.js';
export type { StoreEvidenceVerifiers } from './store-evidence-verifiers.js';
export { inboxArtifactName, nameCouldConcern, parseInboxArtifactName } from './inbox-artifact-name.js';
export type { InboxArtifactName, InboxWant } from './inbox-artifact-name.js';
export { awaitedInboxName, exchangeNameOfOutboxFile, exchangeRequestName } from './exchange-names.js';
export type { CoordinatorError } from './coordinator-error.js';
