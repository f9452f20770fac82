// Public API of @pfsense-mcp/contract-store: explicit named exports only.
// Execution transitions and artifact decryption are NOT here: see '@pfsense-mcp/contract-store/executor'.
export { SqliteRecoveryContractStore } from './store/sqlite-recovery-contract-store.js';
export type { AuditVerification } from './audit/verify-audit-chain.js';
export type { StoreIntegrityFailure, StoreIntegrityReport } from './integrity/store-integrity-report.js';
export { DEFAULT_RETENTION_MS } from './store/contract-store-options.js';
export { isPurgeable } from './artifacts/is-purgeable.js';
export type { ContractStoreOptions } from './store/contract-store-options.js';
export type { CreateOptions } from './transitions/create-contract.js';
export type { AuditEventView } from './audit/list-audit-events.js';
export type { ListFilter } from './model/read-contracts.js';
export type { ReconciledContract } from './transitions/reconcile-interrupted.js';
export { SqliteConsumptionStore } from './consumption/sqlite-consumption-store.js';
export { currentProcessOwner, isOwnerAlive } from './store/process-owner.js';
export type { ConsumptionStoreOptions } from './consumption/sqlite-consumption-store.js';
export { FileAntiRollbackAnchor } from './anchor/file-anti-rollback-anchor.js';
export type { FileAntiRollbackAnchorOptions } from './anchor/file-anti-rollback-anchor.js';
export type { AnchorRecord, AntiRollbackAnchor } from './anchor/anti-rollback-anchor.js';
export { CONTRACT_SCHEMA_VERSION, PROTECTED_ARTIFACT_PURPOSES, recoveryContractSchema } from './model/recovery-contract.js';
export type {
  ContractProvenance,
  ProcessOwner,
  ProtectedArtifactPurpose,
  RecoveryContract,
  ResolutionOutcome,
} from './model/recovery-contract.js';
export {
  ALIAS_UPDATE_CHANGE_KIND,
  CONFIG_HISTORY_CLASSES,
  CONFIG_HISTORY_UNKNOWN_REASONS,
  MAX_RECORDED_REVISION_TIMES,
  configHistoryRecordDigest,
  configHistoryRecordSchema,
} from './model/config-history-record.js';
export type { ConfigHistoryClass, ConfigHistoryRecord, ConfigHistoryUnknownReason } from './model/config-history-record.js';
export { newContractInputSchema } from './model/new-contract-input.js';
export type { NewContractInput } from './model/new-contract-input.js';
export { verifyBindings } from './integrity/verify-bindings.js';
export type { ContractBindings } from './integrity/verify-bindings.js';
export type {
  ConfirmationVerifier,
  ReconciliationOrigin,
  ReconciliationOutcome,
  ReconciliationVerifier,
  ReservationReleaseVerifier,
  VerifiedConfirmation,
  VerifiedReservationRelease,
  VerifiedResolution,
} from './integrity/evidence-verifiers.js';
export type { AuditEventBody } from './audit/audit-chain.js';
export type { RefusalAuditClass, RefusalAuditInput } from './audit/refusal-audit-input.js';
// Test-only: crash injection is keyed by this symbol, never by a string option.
export { CRASH_HOOKS, CRASH_POINTS } from './store/crash-hooks.js';
export type { CrashHooks, CrashPoint, WithCrashHooks } from './store/crash-hooks.js';
export type { RateLimits } from './rate/rate-gate.js';
export type { RateCount, RateWindowsView } from './rate/rate-windows-view.js';
export { CONSUMPTION_STORE_MIGRATIONS, CONTRACT_STORE_MIGRATIONS } from './migration/schema-migrations.js';
export { STORE_SCHEMA_VERSION } from './migration/store-schema-version.js';
export type { MigrationSet } from './migration/schema-migrations.js';
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
} from './store/contract-store-error.js';
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
} from './store/contract-store-error.js';
// Master-key rotation (README "Rotating the master key").
export { FIRST_KEY_EPOCH } from './store/key-epoch.js';
export { KeyEpochMismatchError, KeyRotationError } from './store/contract-store-error.js';
export type { KeyRotationErrorCode } from './store/contract-store-error.js';
export { recoverMasterKeyRotation, rotateMasterKey } from './rotation/master-key-rotation.js';
export type {
  MasterKeyRotationOptions,
  MasterKeyRotationPaths,
  MasterKeyRotationResult,
  RotationRecovery,
} from './rotation/master-key-rotation.js';
export { readRotationJournal } from './rotation/rotation-journal.js';
export type { RotationJournal } from './rotation/rotation-journal.js';
// Test-only: rotation crash injection, keyed by this symbol.
export { ROTATION_CRASH_HOOKS, ROTATION_STEPS } from './rotation/rotation-crash-hooks.js';
export type { RotationCrashHooks, RotationStep, WithRotationCrashHooks } from './rotation/rotation-crash-hooks.js';
