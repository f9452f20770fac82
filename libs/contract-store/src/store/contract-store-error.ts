import { CodedError } from '@pfsense-mcp/foundation';
import type { RateRefusalReason } from '@pfsense-mcp/policy';

/**
 * The contract store's error family. Every error carries a stable `code` and only safe context
 * (ids, states, sequence numbers, field names) — never a protected value, a key, a path
 * component chosen by an attacker beyond the configured one, or an evidence body.
 */
export class ContractStoreError extends CodedError<string> {
  constructor(code: string, message: string) {
    super(code, message);
    this.name = 'ContractStoreError';
  }
}

export type StoreFileErrorCode =
  | 'NOT_FOUND'
  | 'SYMLINK'
  | 'NOT_DIRECTORY'
  | 'NOT_REGULAR_FILE'
  | 'WRONG_OWNER'
  | 'UNSAFE_MODE'
  | 'EXISTS'
  | 'KEY_IN_STORE_DIRECTORY'
  | 'ANCHOR_IN_STORE_DIRECTORY';

/** A store directory or file is missing, a symlink, wrongly owned or too permissive (fails closed at open). */
export class StoreFileError extends ContractStoreError {
  readonly path: string;
  constructor(code: StoreFileErrorCode, path: string, message: string) {
    super(code, `${message}: ${path}`);
    this.name = 'StoreFileError';
    this.path = path;
  }
}

export type SchemaVersionErrorCode = 'UNKNOWN_SCHEMA' | 'LEGACY_SCHEMA' | 'NEWER_SCHEMA' | 'SCHEMA_MISMATCH';

/** The database was written by an unknown, older or newer schema, or its structure differs from the expected one. */
export class SchemaVersionError extends ContractStoreError {
  /** The store schema version the database records, when it was read (a number, never a value). */
  readonly storeVersion: number | null;
  /** The store schema version this release writes, when the refusal compares versions. */
  readonly releaseVersion: number | null;
  constructor(code: SchemaVersionErrorCode, message: string, versions: { readonly store: number; readonly release: number } | null = null) {
    super(code, message);
    this.name = 'SchemaVersionError';
    this.storeVersion = versions?.store ?? null;
    this.releaseVersion = versions?.release ?? null;
  }
}

/** The contract store's tables, as integrity errors and reports name them. */
export type StoreTable = 'store_meta' | 'contracts' | 'protected_artifacts' | 'audit_events' | 'target_reservations' | 'rate_windows';

export type RecordIntegrityErrorCode =
  | 'RECORD_MAC'
  | 'RECORD_MALFORMED'
  | 'INDEX_MISMATCH'
  | 'META_MAC'
  | 'META_MISSING'
  | 'RESERVATION_MAC'
  | 'RATE_STATE_MAC'
  | 'RATE_STATE_MALFORMED'
  | 'ARTIFACT_DIGEST';

const TABLE_OF_CODE: Readonly<Record<RecordIntegrityErrorCode, StoreTable>> = Object.freeze({
  RECORD_MAC: 'contracts',
  RECORD_MALFORMED: 'contracts',
  INDEX_MISMATCH: 'contracts',
  META_MAC: 'store_meta',
  META_MISSING: 'store_meta',
  RESERVATION_MAC: 'target_reservations',
  RATE_STATE_MAC: 'rate_windows',
  RATE_STATE_MALFORMED: 'rate_windows',
  ARTIFACT_DIGEST: 'protected_artifacts',
});

/** A row failed authentication or cross-checking; nothing from it is returned. Names its table. */
export class RecordIntegrityError extends ContractStoreError {
  readonly contractId: string | null;
  readonly table: StoreTable;
  constructor(code: RecordIntegrityErrorCode, contractId: string | null, message: string) {
    super(code, contractId === null ? message : `${message} (contract ${contractId})`);
    this.name = 'RecordIntegrityError';
    this.contractId = contractId;
    this.table = TABLE_OF_CODE[code];
  }
}

/**
 * How the rows disagree with the authenticated audit chain: ROW_MISSING (the audit names a contract, or a
 * contract's state implies a reservation, artifact or rate row, that is not there), ROW_STALE (an
 * authentic row older than the audit's latest version of it), ROW_UNEXPECTED (a row the audit and the
 * contract states do not account for), ROW_MISMATCH (a row whose content differs from what they imply).
 */
export type StoreConsistencyKind = 'ROW_MISSING' | 'ROW_STALE' | 'ROW_UNEXPECTED' | 'ROW_MISMATCH';

/**
 * The store's rows are authentic one by one but inconsistent with its authenticated audit chain — rows
 * deleted or older authentic rows written back while the store was closed. Names the table and the
 * contract id (never a value); `code` is the kind.
 */
export class StoreConsistencyError extends ContractStoreError {
  readonly table: StoreTable;
  readonly contractId: string | null;
  readonly kind: StoreConsistencyKind;
  constructor(table: StoreTable, kind: StoreConsistencyKind, contractId: string | null) {
    super(kind, `store rows disagree with the audit chain: ${table} ${kind}${contractId === null ? '' : ` (contract ${contractId})`}`);
    this.name = 'StoreConsistencyError';
    this.table = table;
    this.contractId = contractId;
    this.kind = kind;
  }
}

/** The HMAC chain of audit rows is broken at `firstBrokenSequence`. */
export class AuditChainError extends ContractStoreError {
  readonly firstBrokenSequence: number;
  constructor(firstBrokenSequence: number) {
    super('AUDIT_CHAIN_BROKEN', `audit chain broken at sequence ${firstBrokenSequence}`);
    this.name = 'AuditChainError';
    this.firstBrokenSequence = firstBrokenSequence;
  }
}

export type StoreRollbackErrorCode = 'BEHIND' | 'DIVERGED' | 'ANCHOR_MISSING' | 'ANCHOR_PRESENT' | 'STORE_MISMATCH' | 'STORE_MISSING';

/** The database is behind, or diverges from, the external anti-rollback anchor (a restored older copy). */
export class StoreRollbackError extends ContractStoreError {
  readonly anchorSequence: number | null;
  readonly storeSequence: number | null;
  constructor(code: StoreRollbackErrorCode, anchorSequence: number | null, storeSequence: number | null) {
    super(
      code,
      `store rollback detected (${code}): anchor sequence ${anchorSequence ?? 'none'}, store sequence ${storeSequence ?? 'none'}`,
    );
    this.name = 'StoreRollbackError';
    this.anchorSequence = anchorSequence;
    this.storeSequence = storeSequence;
  }
}

export type AnchorErrorCode = 'ANCHOR_CORRUPT' | 'ANCHOR_MAC' | 'ANCHOR_UNSAFE_FILE' | 'ANCHOR_WRITE_FAILED';

/** The anchor itself cannot be trusted or written (tampered file, unsafe mode, I/O failure). */
export class AnchorError extends ContractStoreError {
  constructor(code: AnchorErrorCode, message: string) {
    super(code, message);
    this.name = 'AnchorError';
  }
}

export class ContractNotFoundError extends ContractStoreError {
  readonly contractId: string;
  constructor(contractId: string) {
    super('CONTRACT_NOT_FOUND', `contract not found: ${contractId}`);
    this.name = 'ContractNotFoundError';
    this.contractId = contractId;
  }
}

/** Compare-and-set on `state_version` failed: someone else moved the contract first. */
export class StaleStateVersionError extends ContractStoreError {
  readonly contractId: string;
  readonly expected: number;
  readonly actual: number;
  constructor(contractId: string, expected: number, actual: number) {
    super('STALE_STATE_VERSION', `stale state version for contract ${contractId}: expected ${expected}, found ${actual}`);
    this.name = 'StaleStateVersionError';
    this.contractId = contractId;
    this.expected = expected;
    this.actual = actual;
  }
}

export type PreconditionErrorCode =
  | 'NOT_CONFIRMED'
  | 'ALREADY_CONFIRMED'
  | 'CONFIRMATION_EXPIRED'
  | 'CONTRACT_EXPIRED'
  | 'WRONG_STATE'
  | 'DUPLICATE_OPERATION'
  | 'DUPLICATE_AUTHORIZATION'
  | 'DUPLICATE_CONTRACT'
  | 'AUTHORIZATION_CONSUMED'
  | 'ROLLBACK_AUTHORIZATION_REQUIRED'
  | 'NOT_HOLDING_RESERVATION'
  | 'VERIFIER_MISSING'
  | 'RESTORE_WITH_WORK_IN_FLIGHT';

/** A transition's precondition (other than the state machine itself) does not hold. */
export class PreconditionError extends ContractStoreError {
  readonly contractId: string | null;
  constructor(code: PreconditionErrorCode, contractId: string | null, message: string) {
    super(code, contractId === null ? message : `${message} (contract ${contractId})`);
    this.name = 'PreconditionError';
    this.contractId = contractId;
  }
}

/** The target's reservation is held by another contract (or its holder row is inconsistent). */
export class TargetReservedError extends ContractStoreError {
  readonly contractId: string;
  constructor(contractId: string) {
    super('TARGET_RESERVED', `target reservation held by other work (contract ${contractId} refused)`);
    this.name = 'TargetReservedError';
    this.contractId = contractId;
  }
}

/** An execution transition was attempted by a process that does not own the in-flight contract. */
export class OwnerMismatchError extends ContractStoreError {
  readonly contractId: string;
  constructor(contractId: string) {
    super('OWNER_MISMATCH', `contract ${contractId} is owned by another process`);
    this.name = 'OwnerMismatchError';
    this.contractId = contractId;
  }
}

/** A binding (capability, endpoint, method, target, fingerprint, intent, locator…) differs. Names the field only. */
export class BindingMismatchError extends ContractStoreError {
  readonly field: string;
  constructor(field: string) {
    super('BINDING_MISMATCH', `binding mismatch: ${field}`);
    this.name = 'BindingMismatchError';
    this.field = field;
  }
}

/** Verified evidence does not match the contract (id, operation, version, origin, locator, role, outcome). */
export class EvidenceMismatchError extends ContractStoreError {
  readonly field: string;
  constructor(field: string) {
    super('EVIDENCE_MISMATCH', `evidence does not match the contract: ${field}`);
    this.name = 'EvidenceMismatchError';
    this.field = field;
  }
}

/**
 * The rate / blast-radius policy refused the transition (nothing was written). The product's one rate-limit
 * error: the policy lib decides (`RateRefusalReason`), the store — which applies the decision — throws this.
 */
export class RateLimitError extends ContractStoreError {
  readonly reason: RateRefusalReason;
  /** A target cooldown's end (UTC ms): the same transition passes then; null for every other reason. */
  readonly retryAtMs: number | null;
  constructor(reason: RateRefusalReason, retryAtMs: number | null = null) {
    super('RATE_LIMITED', `refused by rate / blast-radius policy: ${reason}`);
    this.name = 'RateLimitError';
    this.reason = reason;
    this.retryAtMs = retryAtMs;
  }
}

export type ProtectedArtifactErrorCode = 'DECRYPT_FAILED' | 'PURGED' | 'MISSING' | 'KEY_UNAVAILABLE' | 'ENCODE_FAILED';

/** A protected artifact cannot be produced or opened. Never carries plaintext or ciphertext. */
export class ProtectedArtifactError extends ContractStoreError {
  readonly contractId: string;
  readonly purpose: string;
  constructor(code: ProtectedArtifactErrorCode, contractId: string, purpose: string) {
    super(code, `protected artifact ${purpose} of contract ${contractId}: ${code}`);
    this.name = 'ProtectedArtifactError';
    this.contractId = contractId;
    this.purpose = purpose;
  }
}

export type ConsumptionErrorCode = 'ROW_MAC' | 'ROW_MALFORMED' | 'META_MAC' | 'META_MISSING' | 'CHAIN_BROKEN';

/** The consumption store has a corrupted row; never reported as "not consumed". */
export class ConsumptionIntegrityError extends ContractStoreError {
  constructor(code: ConsumptionErrorCode, message: string) {
    super(code, message);
    this.name = 'ConsumptionIntegrityError';
  }
}

/** The store was used after close(). */
export class StoreClosedError extends ContractStoreError {
  constructor() {
    super('STORE_CLOSED', 'the store is closed');
    this.name = 'StoreClosedError';
  }
}

/** A store file and its anchor (or two files that must agree) are at different master-key epochs: refused, never used mixed. */
export class KeyEpochMismatchError extends ContractStoreError {
  readonly storeEpoch: number;
  readonly otherEpoch: number;
  constructor(what: string, storeEpoch: number, otherEpoch: number) {
    super(
      'KEY_EPOCH_MISMATCH',
      `${what} is at master-key epoch ${otherEpoch} but the store is at epoch ${storeEpoch} (an interrupted or partial key rotation?)`,
    );
    this.name = 'KeyEpochMismatchError';
    this.storeEpoch = storeEpoch;
    this.otherEpoch = otherEpoch;
  }
}

export type KeyRotationErrorCode =
  'WORK_IN_FLIGHT' | 'EPOCHS_DIFFER' | 'STALE_STAGED_FILE' | 'JOURNAL_CORRUPT' | 'JOURNAL_KEY_MISMATCH' | 'ROTATION_IN_PROGRESS';

/** `rotate master-key` refused, or an interrupted rotation cannot be settled from its journal. Value-free. */
export class KeyRotationError extends ContractStoreError {
  constructor(code: KeyRotationErrorCode, message: string) {
    super(code, message);
    this.name = 'KeyRotationError';
  }
}
