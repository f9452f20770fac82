// Public API of @pfsense-mcp/contract-store: explicit named exports only.
// Execution transitions and artifact decryption are NOT here: see '@pfsense-mcp/contract-store/executor'.
export { SqliteRecoveryContractStore } from './sqlite-recovery-contract-store.js';
export type { AuditVerification } from './verify-audit-chain.js';
export type { StoreIntegrityFailure, StoreIntegrityReport } from './store-integrity-report.js';
export { DEFAULT_RETENTION_MS } from './contract-store-options.js';
export { isPurgeable } from './is-purgeable.js';
export type { ContractStoreOptions } from './contract-store-options.js';
export type { CreateOptions } from './create-contract.js';
export type { AuditEventView } from './list-audit-events.js';
export type { ListFilter } from './read-contracts.js';
export type { ReconciledContract } from './reconcile-interrupted.js';
export { SqliteConsumptionStore } from './sqlite-consumption-store.js';
export { currentProcessOwner, isOwnerAlive } from './process-owner.js';
export type { ConsumptionStoreOptions } from './sqlite-consumption-store.js';
export { FileAntiRollbackAnchor } from './file-anti-rollback-anchor.js';
export type { FileAntiRollbackAnchorOptions } from './file-anti-rollback-anchor.js';
export type { AnchorRecord, AntiRollbackAnchor } from './anti-rollback-anchor.js';
export {
  CONTRACT_SCHEMA_VERSION,
  PROTECTED_ARTIFACT_PURPOSES,
  recoveryContractSchema,
} from './recovery-contract.js';
export type {
  ContractProvenance,
  ProcessOwner,
  ProtectedArtifactPurpose,
  RecoveryContract,
  ResolutionOutcome,
} from './recovery-contract.js';
export {
  ALIAS_UPDATE_CHANGE_KIND,
  CONFIG_HISTORY_CLASSES,
  CONFIG_HISTORY_UNKNOWN_REASONS,
  MAX_RECORDED_REVISION_TIMES,
  configHistoryRecordDigest,
  configHistoryRecordSchema,
} from './config-history-record.js';
export type { ConfigHistoryClass, ConfigHistoryRecord, ConfigHistoryUnknownReason } from './config-history-record.js';
export { newContractInputSchema } from './new-contract-input.js';
export type { NewContractInput } from './new-contract-input.js';
export { verifyBindings } from './verify-bindings.js';
export type { ContractBindings } from './verify-bindings.js';
export type {
  ConfirmationVerifier,
  ReconciliationOrigin,
  ReconciliationOutcome,
  ReconciliationVerifier,
  ReservationReleaseVerifier,
  VerifiedConfirmation,
  VerifiedReservationRelease,
  VerifiedResolution,
} from './evidence-verifiers.js';
export type { AuditEventBody } from './audit-chain.js';
export type { RefusalAuditClass, RefusalAuditInput } from './refusal-audit-input.js';
// Test-only: crash injection is keyed by this symbol, never by a string option.
export { CRASH_HOOKS, CRASH_POINTS } from './crash-hooks.js';
export type { CrashHooks, CrashPoint, WithCrashHooks } from './crash-hooks.js';
export type { RateLimits } from './rate-gate.js';
export type { RateCount, RateWindowsView } from './rate-windows-view.js';
export { CONSUMPTION_STORE_MIGRATIONS, CONTRACT_STORE_MIGRATIONS } from './schema-migrations.js';
export { STORE_SCHEMA_VERSION } from './store-schema-version.js';
export type { MigrationSet } from './schema-migrations.js';
export {
  AnchorError,
  AuditChainError,
  BindingMismatchError,
  ConsumptionIntegrityError,
  ContractNotFoundError,
  ContractStoreError,
  EvidenceMismatchError,
  OwnerMismatchError,
  PreconditionError,
  ProtectedArtifactError,
  RateLimitError,
  RecordIntegrityError,
  SchemaVersionError,
  StaleStateVersionError,
  StoreClosedError,
  StoreConsistencyError,
  StoreFileError,
  StoreRollbackError,
  TargetReservedError,
} from './contract-store-error.js';
export type {
  AnchorErrorCode,
  ConsumptionErrorCode,
  PreconditionErrorCode,
  ProtectedArtifactErrorCode,
  RecordIntegrityErrorCode,
  SchemaVersionErrorCode,
  StoreConsistencyKind,
  StoreFileErrorCode,
  StoreRollbackErrorCode,
  StoreTable,
} from './contract-store-error.js';
// Master-key rotation (README "Rotating the master key").
export { FIRST_KEY_EPOCH } from './key-epoch.js';
export { KeyEpochMismatchError, KeyRotationError } from './contract-store-error.js';
export type { KeyRotationErrorCode } from './contract-store-error.js';
export { recoverMasterKeyRotation, rotateMasterKey } from './master-key-rotation.js';
export type { MasterKeyRotationOptions, MasterKeyRotationPaths, MasterKeyRotationResult, RotationRecovery } from './master-key-rotation.js';
export { readRotationJournal } from './rotation-journal.js';
export type { RotationJournal } from './rotation-journal.js';
// Test-only: rotation crash injection, keyed by this symbol.
export { ROTATION_CRASH_HOOKS, ROTATION_STEPS } from './rotation-crash-hooks.js';
export type { RotationCrashHooks, RotationStep, WithRotationCrashHooks } from './rotation-crash-hooks.js';
