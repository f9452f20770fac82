import { createHash, randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { bytesToHex, canonicalBytes, isSafeToken } from '@pfsense-mcp/canonical';
import type { CanonicalValue } from '@pfsense-mcp/canonical';
import { aeadOpen, aeadSeal } from '@pfsense-mcp/crypto';
import { deepFreeze } from '@pfsense-mcp/foundation';
import {
  RESERVATION_HOLDING_STATES,
  RecoveryEvent,
  RecoveryState,
  TERMINAL_STATES,
  nextState,
} from '@pfsense-mcp/state-machine';
import type { AntiRollbackAnchor, AnchorRecord } from './anti-rollback-anchor.js';
import { auditGenesisMac, auditRowMac, verifyAuditRows } from './audit-chain.js';
import { AuditedContracts } from './audited-contracts.js';
import type { AuditChainResult, AuditEventBody, AuditRow } from './audit-chain.js';
import {
  AuditChainError,
  BindingMismatchError,
  ContractNotFoundError,
  EvidenceMismatchError,
  KeyEpochMismatchError,
  OwnerMismatchError,
  PreconditionError,
  ProtectedArtifactError,
  RecordIntegrityError,
  SchemaVersionError,
  StaleStateVersionError,
  StoreClosedError,
  StoreConsistencyError,
  StoreFileError,
  StoreRollbackError,
  TargetReservedError,
} from './contract-store-error.js';
import { configHistoryPatch } from './config-history-record.js';
import type { ConfigHistoryRecord } from './config-history-record.js';
import { crashHooksOf } from './crash-hooks.js';
import type { CrashHooks, CrashPoint, WithCrashHooks } from './crash-hooks.js';
import {
  verifiedConfirmationSchema,
  verifiedReleaseSchema,
  verifiedResolutionSchema,
} from './evidence-verifiers.js';
import type { ConfirmationVerifier, ReconciliationVerifier, ReservationReleaseVerifier } from './evidence-verifiers.js';
import { FileAntiRollbackAnchor } from './file-anti-rollback-anchor.js';
import { FIRST_KEY_EPOCH, epochParts, readKeyEpoch } from './key-epoch.js';
import { newContractInputSchema } from './new-contract-input.js';
import { refusalAuditInputSchema } from './refusal-audit-input.js';
import type { NewContractInput } from './new-contract-input.js';
import { currentProcessOwner, isOwnerAlive, sameOwner } from './process-owner.js';
import { isPurgeable } from './is-purgeable.js';
import { restoreAcceptedAuditBody } from './restore-accepted-audit.js';
import { RateGate } from './rate-gate.js';
import type { RateLimits } from './rate-gate.js';
import type { RateWindowsView } from './rate-windows-view.js';
import {
  CONTRACT_SCHEMA_VERSION,
  PROTECTED_ARTIFACT_PURPOSES,
  hex64Schema,
  locatorSchema,
  outcomeClassSchema,
  recoveryContractSchema,
} from './recovery-contract.js';
import type { ProcessOwner, ProtectedArtifactPurpose, RecoveryContract } from './recovery-contract.js';
import { MacDomain, macMatches, rowMac } from './row-mac.js';
import { CONTRACT_STORE_MIGRATIONS, executedMigrations, prepareSchema } from './schema-migrations.js';
import { assertSecureDirectory, assertSecureFile, createSecureFile } from './secure-store-path.js';
import { integrityFailureOf } from './store-integrity-report.js';
import { STORE_SCHEMA_VERSION } from './store-schema-version.js';
import { legacyStoreRefusal, refuseNewerStore, upgradeStoreVersion } from './store-version-upgrade.js';
import type { StoreIntegrityReport } from './store-integrity-report.js';
import type { VerifiedSeal } from './verified-seal.js';
import { loadStoreKeys } from './store-keys.js';
import type { MasterKeySource, StoreKeys } from './store-keys.js';

/** Options of `SqliteRecoveryContractStore.open`. */
export interface ContractStoreOptions extends MasterKeySource, WithCrashHooks {
  /** Store directory: must exist, be a real directory owned by the process user, mode 0700. */
  readonly directory: string;
  /** Database file name inside `directory` (default `contracts.sqlite`). */
  readonly fileName?: string;
  /** Injected wall clock, UTC milliseconds. The store never reads the system clock itself. */
  readonly clock: () => number;
  /** The anti-rollback anchor: an implementation, or `{ file }` for the file anchor keyed by this store. */
  readonly anchor: AntiRollbackAnchor | { readonly file: string };
  readonly confirmationVerifier?: ConfirmationVerifier;
  readonly reconciliationVerifier?: ReconciliationVerifier;
  readonly reservationReleaseVerifier?: ReservationReleaseVerifier;
  /** Rate / blast-radius limits (defaults: policy's provisional values, docs/DESIGN.md §3). */
  readonly rateLimits?: Partial<RateLimits>;
  /** How long protected artifacts of terminal contracts are kept (default 30 days). */
  readonly retentionMs?: number;
  /** SQLite busy timeout for lock waits (default 10 s). */
  readonly busyTimeoutMs?: number;
  /** Verify every contract row MAC and the whole audit chain at open (default true). */
  readonly verifyOnOpen?: boolean;
  /** Run pending migrations of an older, known schema (default false: an older schema is refused). */
  readonly migrate?: boolean;
}

/** Options of `create`. */
export interface CreateOptions {
  /**
   * Called with the contract's authorization id inside the creation transaction, after every check that
   * can refuse (duplicates, rate / blast-radius) and immediately before the row is written; it must
   * return true (consumed now) or the creation is refused (AUTHORIZATION_CONSUMED). An error it throws
   * rolls the creation back and propagates unchanged. For the one-time consumption ledger: a refusal
   * can then never follow a consumption.
   */
  readonly consume?: (authorizationId: string) => boolean;
}

export const DEFAULT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Canonical-encoding limits of a protected artifact (target identity, intent, rollback snapshot). A snapshot
 * is one target's full state — an alias of up to 100,000 members — so the canonical defaults (10,000-element
 * arrays, 1 MiB) are too small; the bound that decides what a change may be requested for is the
 * authorization library's, well below this.
 */
const PROTECTED_ARTIFACT_LIMITS = Object.freeze({ maxArrayLength: 100_000, maxBytes: 64 * 1024 * 1024 });

interface ContractRow {
  contract_id: string;
  operation_id: string;
  authorization_id: string;
  target_identity_digest: string;
  state: string;
  state_version: number;
  expires_at: number;
  terminal_at: number | null;
  record: Buffer;
  mac: Buffer;
}

interface Head {
  readonly sequence: number;
  readonly mac: Uint8Array;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type ContractPatch = Partial<Mutable<Pick<RecoveryContract,
  | 'owner'
  | 'verified_target_fingerprint'
  | 'verified_lifecycle_locator'
  | 'rollback_verified_target_fingerprint'
  | 'rollback_verified_lifecycle_locator'
  | 'reconciliation'
  | 'resolution'
  | 'last_outcome_class'
  | 'execution_config_history'
  | 'rollback_config_history'>>>;

/** The config-history record a send-ending transition keeps, under the forward or the rollback field. */
function historyPatch(fn: string, event: RecoveryEvent, configHistory: ConfigHistoryRecord | undefined): ReturnType<typeof configHistoryPatch> {
  const rollback = event === RecoveryEvent.ROLLBACK_VERIFIED || event === RecoveryEvent.ROLLBACK_FAILED || event === RecoveryEvent.ROLLBACK_AMBIGUOUS;
  return configHistoryPatch(fn, rollback ? 'rollback' : 'execution', configHistory);
}

interface AuditExtras {
  readonly outcomeClass: string | null;
  readonly evidenceDigest?: string | null;
  readonly authorityKeyId?: string | null;
}

/** Result of `reconcileInterrupted()`: which in-flight contracts were moved to RECONCILIATION. */
export interface ReconciledContract {
  readonly contract_id: string;
  readonly from_state: 'EXECUTING' | 'ROLLING_BACK';
}

export interface ListFilter {
  readonly states?: readonly RecoveryState[];
  readonly operationId?: string;
  readonly afterContractId?: string;
  readonly limit?: number;
}

/** The first failed check of `integrityReport()`: which table, which row (contract id or sequence), which kind. */
export interface IntegrityFailure {
  readonly table: string;
  readonly row: string;
  readonly kind: string;
}

export interface IntegrityReport {
  readonly contracts: number;
  readonly auditRows: number;
  readonly reservations: number;
  readonly head: { readonly sequence: number; readonly mac: string };
  readonly anchor: { readonly sequence: number; readonly headMac: string } | null;
  readonly failure: IntegrityFailure | null;
}

export interface AuditEventView extends AuditEventBody {
  readonly sequence: number;
}

function aadOf(contractId: string, purpose: ProtectedArtifactPurpose): Uint8Array {
  return canonicalBytes({ contract_id: contractId, purpose, schema_version: CONTRACT_SCHEMA_VERSION });
}

function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function zodPaths(error: { issues: readonly { path: readonly PropertyKey[] }[] }): string {
  return error.issues.map((i) => i.path.map(String).join('.') || '(root)').join(', ');
}

/**
 * The implementation behind both public entries. It is not exported from the package: the public
 * store and the executor entry each expose only their own operations (see `coreOf`).
 */

export class StoreCore {
  readonly #db: Database.Database;
  readonly #keys: StoreKeys;
  readonly #storeId: string;
  readonly #clock: () => number;
  readonly #anchor: AntiRollbackAnchor;
  readonly #confirmationVerifier: ConfirmationVerifier | undefined;
  readonly #reconciliationVerifier: ReconciliationVerifier | undefined;
  readonly #releaseVerifier: ReservationReleaseVerifier | undefined;
  readonly #retentionMs: number;
  readonly #crashHooks: CrashHooks | undefined;
  readonly #rate: RateGate;
  readonly #genesisMac: Uint8Array;
  /** Master-key epoch of this file (key-epoch.ts): every anchor mark it writes carries it, every mark it reads must. */
  readonly #keyEpoch: number;
  readonly #stmt: ReturnType<StoreCore['prepareStatements']>;
  #owner: ProcessOwner | null = null;
  #closed = false;
  #auditWritten = false;

  private constructor(
    db: Database.Database,
    keys: StoreKeys,
    storeId: string,
    anchor: AntiRollbackAnchor,
    options: ContractStoreOptions,
    keyEpoch: number,
  ) {
    this.#db = db;
    this.#keyEpoch = keyEpoch;
    this.#keys = keys;
    this.#storeId = storeId;
    this.#clock = options.clock;
    this.#anchor = anchor;
    this.#confirmationVerifier = options.confirmationVerifier;
    this.#reconciliationVerifier = options.reconciliationVerifier;
    this.#releaseVerifier = options.reservationReleaseVerifier;
    this.#retentionMs = options.retentionMs ?? DEFAULT_RETENTION_MS;
    this.#crashHooks = crashHooksOf(options, 'SqliteRecoveryContractStore.open');
    this.#genesisMac = auditGenesisMac(keys.auditChain, storeId);
    this.#stmt = this.prepareStatements();
    this.#rate = new RateGate(db, keys.recordMac, storeId, options.rateLimits ?? {});
  }

  // ---------------------------------------------------------------- open

  /**
   * `normal`: the store of a running server (created on first use, anchor compared then advanced, every
   * row verified against the chain). `reanchor`: README "Backup and restore". `verify`: for
   * `integrityReport` only — nothing is created, migrated, advanced or verified at open.
   */
  static async open(options: ContractStoreOptions, mode: 'normal' | 'reanchor' | 'accept-restore' | 'verify' = 'normal'): Promise<StoreCore> {
    const fn = 'SqliteRecoveryContractStore.open';
    if (options === null || typeof options !== 'object') throw new TypeError(`${fn}: "options" must be an object`);
    if (typeof options.directory !== 'string' || options.directory.length === 0) throw new TypeError(`${fn}: "directory" must be a non-empty string`);
    if (options.fileName !== undefined && !isSafeToken(options.fileName)) throw new TypeError(`${fn}: "fileName" must be a safe token`);
    if (typeof options.clock !== 'function') throw new TypeError(`${fn}: "clock" must be a function returning UTC milliseconds`);
    if (options.anchor === null || typeof options.anchor !== 'object') throw new TypeError(`${fn}: "anchor" must be an AntiRollbackAnchor or { file }`);
    if (options.retentionMs !== undefined && (!Number.isSafeInteger(options.retentionMs) || options.retentionMs < 0)) {
      throw new TypeError(`${fn}: "retentionMs" must be a non-negative safe integer`);
    }
    const busy = options.busyTimeoutMs ?? 10_000;
    if (!Number.isSafeInteger(busy) || busy < 0) throw new TypeError(`${fn}: "busyTimeoutMs" must be a non-negative safe integer`);

    crashHooksOf(options, fn);
    StoreCore.assertSeparated(options);
    const keys = loadStoreKeys(options, fn);
    const anchor: AntiRollbackAnchor =
      'file' in options.anchor && typeof options.anchor.file === 'string'
        ? new FileAntiRollbackAnchor({ path: options.anchor.file, macKey: keys.anchor })
        : (options.anchor as AntiRollbackAnchor);
    if (typeof anchor.read !== 'function' || typeof anchor.write !== 'function') {
      throw new TypeError(`${fn}: "anchor" must implement read() and write()`);
    }

    assertSecureDirectory(options.directory);
    const path = join(options.directory, options.fileName ?? 'contracts.sqlite');
    const exists = assertSecureFile(path, false);
    assertSecureFile(`${path}-wal`, false);
    assertSecureFile(`${path}-shm`, false);
    if (!exists) {
      // A missing database next to an existing anchor is a deleted (rolled back) store, not a new one.
      const prior = anchor.read();
      if (prior !== null) throw new StoreRollbackError('STORE_MISSING', prior.sequence, null);
      if (mode === 'verify') throw new StoreFileError('NOT_FOUND', path, 'database file does not exist');
      createSecureFile(path);
    }

    const db = new Database(path, { fileMustExist: true });
    try {
      db.pragma(`busy_timeout = ${busy}`);
      const journal = db.pragma('journal_mode = WAL', { simple: true });
      if (String(journal).toLowerCase() !== 'wal') throw new Error('could not enable WAL');
      db.pragma('synchronous = FULL');
      db.pragma('foreign_keys = ON');
      // Deleted content (purged artifacts) is overwritten with zeros inside the database file.
      db.pragma('secure_delete = ON');
      db.defaultSafeIntegers(false);

      // A verification never initializes an empty file.
      if (mode === 'verify' && executedMigrations(db) === null) throw new SchemaVersionError('UNKNOWN_SCHEMA', 'database has no recognizable schema version');
      refuseNewerStore(db);
      await prepareSchema(db, path, CONTRACT_STORE_MIGRATIONS, { migrate: options.migrate === true && mode !== 'verify' });
      // SQLite creates -wal/-shm with the database file's mode; check them now that they exist.
      assertSecureFile(`${path}-wal`, false);
      assertSecureFile(`${path}-shm`, false);

      const keyEpoch = readKeyEpoch(db);
      const meta = StoreCore.loadOrCreateMeta(db, keys, options.clock, mode !== 'verify', options.migrate === true && mode === 'normal', keyEpoch);
      const core = new StoreCore(db, keys, meta.storeId, anchor, options, keyEpoch);
      if (mode === 'reanchor') {
        core.verifyEverything();
        core.openAnchorCheck(true);
        core.expireAfterRestore();
      } else if (mode === 'accept-restore') {
        core.verifyEverything();
        core.refuseRestoreWithWorkInFlight();
        core.acceptAnchor();
        core.expireAfterRestore();
      } else if (mode === 'normal') {
        // The anchor first: a database behind it (rows deleted at the tail, a restored copy) is reported as
        // that, not as the rows it then no longer accounts for.
        core.openAnchorCheck(false);
        if (meta.olderVersion !== null) core.upgradeVersion(meta.olderVersion, meta.createdAt);
        else if (options.verifyOnOpen !== false) core.verifyEverything();
      }
      return core;
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /**
   * docs/DESIGN.md §3, §10: the key never sits next to the database, and a file
   * anchor next to the database would be rolled back together with it.
   */
  private static assertSeparated(options: ContractStoreOptions): void {
    const storeDir = resolve(options.directory);
    if (typeof options.masterKeyFile === 'string' && dirname(resolve(options.masterKeyFile)) === storeDir) {
      throw new StoreFileError('KEY_IN_STORE_DIRECTORY', options.masterKeyFile, 'master key file must not be in the store directory');
    }
    if ('file' in options.anchor && typeof options.anchor.file === 'string' && dirname(resolve(options.anchor.file)) === storeDir) {
      throw new StoreFileError('ANCHOR_IN_STORE_DIRECTORY', options.anchor.file, 'anchor file must not be in the store directory');
    }
  }

  /** The store id; `olderVersion` is set only when `migrate` allows an authenticated older store to be upgraded. */
  private static loadOrCreateMeta(
    db: Database.Database,
    keys: StoreKeys,
    clock: () => number,
    create: boolean,
    migrate: boolean,
    keyEpoch: number,
  ): { readonly storeId: string; readonly createdAt: number; readonly olderVersion: number | null } {
    return db
      .transaction(() => {
        const row = db.prepare('SELECT store_id, schema_version, created_at, mac FROM store_meta WHERE id = 1').get() as
          | { store_id: string; schema_version: number; created_at: number; mac: Buffer }
          | undefined;
        if (row === undefined) {
          if (!create) throw new RecordIntegrityError('META_MISSING', null, 'store metadata row is missing');
          const used = db.prepare('SELECT (SELECT count(*) FROM contracts) + (SELECT count(*) FROM audit_events) AS n').get() as { n: number };
          if (used.n !== 0) throw new RecordIntegrityError('META_MISSING', null, 'store metadata row is missing');
          const storeId = `store-${randomBytes(16).toString('hex')}`;
          const createdAt = clock();
          const mac = rowMac(keys.recordMac, MacDomain.META, [storeId, String(STORE_SCHEMA_VERSION), String(createdAt)]);
          db.prepare('INSERT INTO store_meta (id, store_id, schema_version, created_at, mac) VALUES (1, ?, ?, ?, ?)').run(
            storeId,
            STORE_SCHEMA_VERSION,
            createdAt,
            Buffer.from(mac),
          );
          return { storeId, createdAt, olderVersion: null };
        }
        const expected = rowMac(keys.recordMac, MacDomain.META, [row.store_id, String(row.schema_version), String(row.created_at), ...epochParts(keyEpoch)]);
        if (!macMatches(expected, row.mac)) {
          throw new RecordIntegrityError('META_MAC', null, `store metadata failed authentication (the store says master-key epoch ${keyEpoch}: wrong key or tampered)`);
        }
        if (row.schema_version === STORE_SCHEMA_VERSION) return { storeId: row.store_id, createdAt: row.created_at, olderVersion: null };
        // Newer versions were refused before the schema gate (refuseNewerStore); this one is older (and so never
        // rotated: a rotation needs this release's version, so its meta MAC carries no epoch part).
        if (!migrate) throw legacyStoreRefusal(row.schema_version);
        return { storeId: row.store_id, createdAt: row.created_at, olderVersion: row.schema_version };
      })
      .immediate();
  }

  private prepareStatements() {
    const db = this.#db;
    return {
      head: db.prepare('SELECT sequence, mac FROM audit_events ORDER BY sequence DESC LIMIT 1'),
      macAt: db.prepare('SELECT mac FROM audit_events WHERE sequence = ?'),
      auditFrom: db.prepare('SELECT sequence, contract_id, body, mac FROM audit_events WHERE sequence > ? ORDER BY sequence'),
      insertAudit: db.prepare('INSERT INTO audit_events (sequence, contract_id, body, mac) VALUES (?, ?, ?, ?)'),
      auditList: db.prepare(
        `SELECT a.sequence, a.contract_id, a.body, a.mac, p.mac AS previous_mac FROM audit_events a
           LEFT JOIN audit_events p ON p.sequence = a.sequence - 1
           WHERE (? IS NULL OR a.contract_id = ?) AND a.sequence > ? ORDER BY a.sequence LIMIT ?`,
      ),
      getContract: db.prepare('SELECT * FROM contracts WHERE contract_id = ?'),
      allContracts: db.prepare('SELECT * FROM contracts ORDER BY contract_id'),
      allArtifacts: db.prepare('SELECT contract_id, purpose, envelope FROM protected_artifacts ORDER BY contract_id, purpose'),
      insertContract: db.prepare(
        `INSERT INTO contracts (contract_id, operation_id, authorization_id, target_identity_digest, state, state_version,
           expires_at, terminal_at, record, mac) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      updateContract: db.prepare(
        `UPDATE contracts SET state = ?, state_version = ?, expires_at = ?, terminal_at = ?, record = ?, mac = ?
           WHERE contract_id = ? AND state_version = ?`,
      ),
      byAuthorization: db.prepare('SELECT contract_id FROM contracts WHERE authorization_id = ?'),
      openByOperation: db.prepare(
        `SELECT contract_id FROM contracts WHERE operation_id = ? AND state NOT IN ('FAILED','ROLLED_BACK','ROLLBACK_FAILED','EXPIRED')`,
      ),
      expirable: db.prepare(
        `SELECT * FROM contracts WHERE state IN ('PREPARING','PREPARED') AND expires_at <= ? ORDER BY contract_id`,
      ),
      inFlight: db.prepare(`SELECT * FROM contracts WHERE state IN ('EXECUTING','ROLLING_BACK') ORDER BY contract_id`),
      purgeable: db.prepare('SELECT * FROM contracts WHERE terminal_at IS NOT NULL AND terminal_at <= ? ORDER BY contract_id'),
      holdersOfTarget: db.prepare(
        `SELECT contract_id FROM contracts WHERE target_identity_digest = ?
           AND state IN ('EXECUTING','ROLLING_BACK','RECONCILIATION','ROLLBACK_FAILED') AND contract_id <> ?`,
      ),
      insertArtifact: db.prepare('INSERT INTO protected_artifacts (contract_id, purpose, envelope) VALUES (?, ?, ?)'),
      getArtifact: db.prepare('SELECT envelope FROM protected_artifacts WHERE contract_id = ? AND purpose = ?'),
      zeroArtifacts: db.prepare('UPDATE protected_artifacts SET envelope = zeroblob(length(envelope)) WHERE contract_id = ?'),
      deleteArtifacts: db.prepare('DELETE FROM protected_artifacts WHERE contract_id = ?'),
      getReservation: db.prepare('SELECT target_identity_digest, contract_id, acquired_at, mac FROM target_reservations WHERE target_identity_digest = ?'),
      allReservations: db.prepare('SELECT target_identity_digest, contract_id, acquired_at, mac FROM target_reservations'),
      insertReservation: db.prepare('INSERT INTO target_reservations (target_identity_digest, contract_id, acquired_at, mac) VALUES (?, ?, ?, ?)'),
      deleteReservation: db.prepare('DELETE FROM target_reservations WHERE target_identity_digest = ? AND contract_id = ?'),
    };
  }

  // ---------------------------------------------------------------- plumbing

  get storeId(): string {
    return this.#storeId;
  }

  /** The master-key epoch of this store file (1 until the first `rotate master-key`). */
  get keyEpoch(): number {
    return this.#keyEpoch;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#db.close();
  }

  get closed(): boolean {
    return this.#closed;
  }

  private assertOpen(): void {
    if (this.#closed) throw new StoreClosedError();
  }

  now(): number {
    const t = this.#clock();
    if (!Number.isSafeInteger(t) || t < 0) throw new TypeError('contract store: "clock" must return non-negative integer UTC milliseconds');
    return t;
  }

  private crash(point: CrashPoint, operation: string): void {
    this.#crashHooks?.at(point, operation);
  }

  /**
   * Every write: one BEGIN IMMEDIATE transaction (the body and its audit rows), then the anchor is
   * advanced to the new head under the write lock (so concurrent writers cannot move it backwards).
   */
  private write<T>(operation: string, body: () => T): T {
    this.assertOpen();
    this.crash('before-begin', operation);
    this.#auditWritten = false;
    const result = this.#db
      .transaction(() => {
        try {
          const r = body();
          // The rate row follows the audit head in the same transaction (RateGate: bound to the head).
          if (this.#auditWritten) this.#rate.flush(this.head().sequence);
          this.crash('after-write-before-commit', operation);
          return r;
        } finally {
          this.#rate.discardPending();
        }
      })
      .immediate();
    if (this.#auditWritten) {
      this.crash('after-commit-before-anchor', operation);
      this.syncAnchor();
      this.crash('after-anchor', operation);
    }
    return result;
  }

  private head(): Head {
    const row = this.#stmt.head.get() as { sequence: number; mac: Buffer } | undefined;
    return row === undefined ? { sequence: 0, mac: this.#genesisMac } : { sequence: row.sequence, mac: row.mac };
  }

  private macAt(sequence: number): Uint8Array | null {
    if (sequence === 0) return this.#genesisMac;
    const row = this.#stmt.macAt.get(sequence) as { mac: Buffer } | undefined;
    return row === undefined ? null : row.mac;
  }

  /**
   * Compares the database with the anchor: behind or diverging → StoreRollbackError; ahead → the
   * rows after the anchor must validly extend its MAC (else AuditChainError). Returns the head and
   * whether the anchor needs advancing. Runs inside a transaction so the view is consistent.
   */
  private checkAgainstAnchor(): { head: Head; advance: boolean; acceptedRestoreAt: number | null } {
    const head = this.head();
    const mark = this.#anchor.read();
    if (mark === null) throw new StoreRollbackError('ANCHOR_MISSING', null, head.sequence);
    if ((mark.keyEpoch ?? FIRST_KEY_EPOCH) !== this.#keyEpoch) throw new KeyEpochMismatchError('the anchor', this.#keyEpoch, mark.keyEpoch ?? FIRST_KEY_EPOCH);
    const acceptedRestoreAt = mark.acceptedRestoreAt ?? null;
    if (mark.storeId !== this.#storeId) throw new StoreRollbackError('STORE_MISMATCH', mark.sequence, head.sequence);
    if (head.sequence < mark.sequence) throw new StoreRollbackError('BEHIND', mark.sequence, head.sequence);
    const at = this.macAt(mark.sequence);
    if (at === null || bytesToHex(at) !== mark.headMac) throw new StoreRollbackError('DIVERGED', mark.sequence, head.sequence);
    if (head.sequence === mark.sequence) return { head, advance: false, acceptedRestoreAt };
    const result = verifyAuditRows(this.#keys.auditChain, this.#storeId, this.auditRowsAfter(mark.sequence), mark.sequence, at);
    if (!result.ok) throw new AuditChainError(result.firstBrokenSequence);
    return { head, advance: true, acceptedRestoreAt };
  }

  /** `acceptedRestoreAt` is carried forward from the mark (it only ever moves forward; see AnchorRecord). */
  private writeAnchor(head: Head, acceptedRestoreAt: number | null): void {
    const record: AnchorRecord = { storeId: this.#storeId, sequence: head.sequence, headMac: bytesToHex(head.mac), acceptedRestoreAt, keyEpoch: this.#keyEpoch };
    this.#anchor.write(record);
  }

  /** After a commit: advance the anchor to the head, holding the write lock so the mark only moves forward. */
  private syncAnchor(): void {
    this.#db
      .transaction(() => {
        const { head, advance, acceptedRestoreAt } = this.checkAgainstAnchor();
        if (advance) this.writeAnchor(head, acceptedRestoreAt);
      })
      .immediate();
  }

  private openAnchorCheck(reanchor: boolean): void {
    this.#db
      .transaction(() => {
        const mark = this.#anchor.read();
        if (mark === null) {
          const head = this.head();
          // Only a store with no history may start a new anchor (first open, or a crash right after it),
          // unless the operator explicitly re-anchors a restored backup (see README).
          if (head.sequence !== 0 && !reanchor) throw new StoreRollbackError('ANCHOR_MISSING', null, head.sequence);
          // An accepted restore records when it was accepted (docs/DESIGN.md §3).
          this.writeAnchor(head, reanchor ? this.now() : null);
          return;
        }
        if (reanchor) throw new StoreRollbackError('ANCHOR_PRESENT', mark.sequence, this.head().sequence);
        const { head, advance, acceptedRestoreAt } = this.checkAgainstAnchor();
        if (advance) this.writeAnchor(head, acceptedRestoreAt);
      })
      .immediate();
  }

  /** Public anchor check (executor: before EXECUTING / ROLLING_BACK; callers: health). */
  checkAnchor(): void {
    this.assertOpen();
    this.syncAnchor();
  }

  private *auditRowsAfter(sequence: number): Generator<AuditRow> {
    for (const row of this.#stmt.auditFrom.iterate(sequence) as Iterable<{ sequence: number; contract_id: string; body: Buffer; mac: Buffer }>) {
      yield row;
    }
  }

  verifyAuditChain(): AuditChainResult {
    this.assertOpen();
    return this.#db.transaction(() => verifyAuditRows(this.#keys.auditChain, this.#storeId, this.auditRowsAfter(0), 0, this.#genesisMac))();
  }

  private verifyEverything(): void {
    this.#db.transaction(() => this.verifyContents())();
  }

  /** `migrate`: the version steps and then every row check, in one transaction — a store that fails is left as it was. */
  private upgradeVersion(from: number, createdAt: number): void {
    this.#db
      .transaction(() => {
        upgradeStoreVersion(this.#db, this.#keys.recordMac, this.#storeId, createdAt, from);
        this.verifyContents();
      })
      .immediate();
  }

  /**
   * Every row against the authenticated audit chain, in one pass over each table (inside the caller's
   * transaction): the chain from genesis; each contract row authentic, its index columns equal to its
   * record, and its state_version and state exactly the latest the audit records for it — and every
   * contract the audit names present; the reservations exactly those the contract states hold; the
   * protected artifacts exactly those of the unpurged contracts, with the recorded digests; the rate
   * row bound to the audit head. Throws the first failure (AuditChainError, RecordIntegrityError,
   * StoreConsistencyError). docs/DESIGN.md §3.
   */
  private verifyContents(): { contracts: number; auditEvents: number } {
    const audited = new AuditedContracts();
    const tapped = function* (rows: Iterable<AuditRow>): Generator<AuditRow> {
      for (const row of rows) {
        yield row;
        // Reached only once the consumer asked for the next row, i.e. after this one verified.
        audited.add(row.sequence, row.contract_id, row.body);
      }
    };
    const chain = verifyAuditRows(this.#keys.auditChain, this.#storeId, tapped(this.auditRowsAfter(0)), 0, this.#genesisMac);
    if (!chain.ok) throw new AuditChainError(chain.firstBrokenSequence);

    const holders = new Map<string, string>();
    const artifacts = new Map<string, { refs: RecoveryContract['protected_artifacts']; seen: number }>();
    let contracts = 0;
    for (const row of this.#stmt.allContracts.iterate() as Iterable<ContractRow>) {
      const r = this.authenticRecord(row);
      const a = audited.take(row.contract_id);
      if (a === undefined) throw new StoreConsistencyError('contracts', 'ROW_UNEXPECTED', row.contract_id);
      if (r.state_version < a.stateVersion) throw new StoreConsistencyError('contracts', 'ROW_STALE', row.contract_id);
      if (r.state_version !== a.stateVersion || r.state !== a.state) throw new StoreConsistencyError('contracts', 'ROW_MISMATCH', row.contract_id);
      const holds = RESERVATION_HOLDING_STATES.has(r.state) && !(r.state === RecoveryState.ROLLBACK_FAILED && r.reservation_release !== null);
      if (holds) {
        if (holders.has(r.target_identity_digest)) throw new StoreConsistencyError('contracts', 'ROW_MISMATCH', row.contract_id);
        holders.set(r.target_identity_digest, row.contract_id);
      }
      if (r.artifacts_purged_at === null) artifacts.set(row.contract_id, { refs: r.protected_artifacts, seen: 0 });
      contracts += 1;
    }
    const missing = audited.firstUntaken();
    if (missing !== null) throw new StoreConsistencyError('contracts', 'ROW_MISSING', missing);

    for (const row of this.#stmt.allReservations.iterate() as Iterable<ReservationRow>) {
      this.verifyReservationRow(row);
      if (holders.get(row.target_identity_digest) !== row.contract_id) {
        throw new StoreConsistencyError('target_reservations', 'ROW_UNEXPECTED', row.contract_id);
      }
      holders.delete(row.target_identity_digest);
    }
    const unreserved = holders.values().next();
    if (unreserved.done !== true) throw new StoreConsistencyError('target_reservations', 'ROW_MISSING', unreserved.value);

    for (const row of this.#stmt.allArtifacts.iterate() as Iterable<{ contract_id: string; purpose: string; envelope: Buffer }>) {
      const expected = artifacts.get(row.contract_id);
      const ref = expected?.refs[row.purpose as ProtectedArtifactPurpose];
      if (expected === undefined || ref === undefined) throw new StoreConsistencyError('protected_artifacts', 'ROW_UNEXPECTED', row.contract_id);
      if (!(row.envelope instanceof Uint8Array) || row.envelope.length !== ref.envelope_bytes || sha256Hex(row.envelope) !== ref.envelope_sha256) {
        throw new RecordIntegrityError('ARTIFACT_DIGEST', row.contract_id, `protected artifact ${row.purpose} does not match the authenticated record`);
      }
      expected.seen += 1;
    }
    for (const [contractId, expected] of artifacts) {
      if (expected.seen !== PROTECTED_ARTIFACT_PURPOSES.length) throw new StoreConsistencyError('protected_artifacts', 'ROW_MISSING', contractId);
    }

    this.#rate.verifyAll(chain.headSequence);
    return { contracts, auditEvents: chain.headSequence };
  }

  /**
   * A whole-store integrity check for operators and health views: the anchor compared read-only (behind,
   * diverged, missing), then `verifyContents`. Never writes. The first failure comes back as a value-free
   * report (table, contract id, sequence, kind); any other error is thrown.
   */
  integrityReport(): StoreIntegrityReport {
    this.assertOpen();
    try {
      return this.#db.transaction((): StoreIntegrityReport => {
        if (this.#anchor.read() !== null || this.head().sequence > 0) this.checkAgainstAnchor();
        const counts = this.verifyContents();
        return Object.freeze({ ok: true as const, contracts: counts.contracts, auditEvents: counts.auditEvents });
      })();
    } catch (error) {
      const failure = integrityFailureOf(error);
      if (failure === null) throw error;
      return Object.freeze({ ok: false as const, failure });
    }
  }

  /**
   * The operator's integrity view (`pfsense-mcp admin audit verify`): counts, the audit head and the anchor, and
   * the first failure of the checks open runs (audit chain, every contract row, every reservation, the rate
   * windows, the anchor) — reported, not thrown, so a broken store can still be described. Value-free.
   */
  operatorIntegrityReport(): IntegrityReport {
    this.assertOpen();
    return this.#db.transaction((): IntegrityReport => {
      const head = this.head();
      let failure: IntegrityFailure | null = null;
      const fail = (table: string, row: string, error: unknown): void => {
        if (failure !== null) return;
        const code = (error as { code?: unknown } | null)?.code;
        failure = Object.freeze({ table, row, kind: typeof code === 'string' ? code : 'ERROR' });
      };
      const auditRows = (this.#db.prepare('SELECT count(*) AS n FROM audit_events').get() as { n: number }).n;
      const chain = verifyAuditRows(this.#keys.auditChain, this.#storeId, this.auditRowsAfter(0), 0, this.#genesisMac);
      if (!chain.ok) fail('audit_events', String(chain.firstBrokenSequence), { code: 'AUDIT_CHAIN_BROKEN' });
      let contracts = 0;
      for (const row of this.#stmt.allContracts.iterate() as Iterable<ContractRow>) {
        contracts += 1;
        try {
          this.verifyRow(row);
        } catch (error) {
          fail('contracts', row.contract_id, error);
        }
      }
      let reservations = 0;
      for (const row of this.#stmt.allReservations.iterate() as Iterable<ReservationRow>) {
        reservations += 1;
        try {
          this.verifyReservationRow(row);
        } catch (error) {
          fail('target_reservations', row.contract_id, error);
        }
      }
      try {
        this.#rate.verifyAll(head.sequence);
      } catch (error) {
        fail('rate_windows', '', error);
      }
      if (failure === null) {
        // Every row authentic on its own: now the rows against the audit chain, the check open runs, so a row
        // deleted or written back while the store was closed is reported here too (table and contract id).
        try {
          this.verifyContents();
        } catch (error) {
          const f = integrityFailureOf(error);
          if (f === null) throw error;
          fail(f.table, f.contractId ?? (f.sequence === null ? '' : String(f.sequence)), { code: f.kind });
        }
      }
      let anchor: AnchorRecord | null = null;
      try {
        anchor = this.#anchor.read();
        if (anchor === null) fail('anchor', '', { code: 'ANCHOR_MISSING' });
        else if (anchor.storeId !== this.#storeId) fail('anchor', String(anchor.sequence), { code: 'STORE_MISMATCH' });
        else if ((anchor.keyEpoch ?? FIRST_KEY_EPOCH) !== this.#keyEpoch) fail('anchor', String(anchor.sequence), { code: 'KEY_EPOCH_MISMATCH' });
        else if (head.sequence < anchor.sequence) fail('anchor', String(anchor.sequence), { code: 'BEHIND' });
        else {
          const at = this.macAt(anchor.sequence);
          if (at === null || bytesToHex(at) !== anchor.headMac) fail('anchor', String(anchor.sequence), { code: 'DIVERGED' });
        }
      } catch (error) {
        fail('anchor', '', error);
      }
      return Object.freeze({
        contracts,
        auditRows,
        reservations,
        head: Object.freeze({ sequence: head.sequence, mac: bytesToHex(head.mac) }),
        anchor: anchor === null ? null : Object.freeze({ sequence: anchor.sequence, headMac: anchor.headMac }),
        failure,
      });
    })();
  }

  /**
   * The operator takes back a PREPARED contract that never began executing (`pfsense-mcp admin cancel`):
   * PREPARED → EXPIRED with outcome CANCELLED, audited, in one CAS transition; the target is free at once.
   */
  cancel(contractId: string): RecoveryContract {
    if (!isSafeToken(contractId)) throw new TypeError('cancel: "contractId" must be a safe token');
    return this.write('cancel', () => {
      const c = this.loadIn(contractId);
      if (c.state !== RecoveryState.PREPARED) throw new PreconditionError('WRONG_STATE', contractId, `cancel needs PREPARED, contract is ${c.state}`);
      return this.transition(c, c.state_version, RecoveryEvent.EXPIRE, {}, { outcomeClass: 'CANCELLED' }, this.now());
    });
  }

  /** A consistent online copy (SQLite backup API) into a new file created 0600 by exclusive creation. */
  async backupTo(path: string): Promise<void> {
    this.assertOpen();
    if (typeof path !== 'string' || path.length === 0 || path.includes('\0')) throw new TypeError('backupTo: "path" must be a non-empty path');
    createSecureFile(path);
    await this.#db.backup(path);
  }

  // ---------------------------------------------------------------- rows

  private verifyRowMac(row: ContractRow): void {
    const expected = rowMac(this.#keys.recordMac, MacDomain.CONTRACT, [this.#storeId, row.contract_id, row.record]);
    if (!macMatches(expected, row.mac)) throw new RecordIntegrityError('RECORD_MAC', row.contract_id, 'contract row failed authentication');
  }

  /**
   * Open-time form of verifyRow: the MAC and the index columns, with a plain parse (the authenticated bytes
   * are this store's own canonical record; the full schema parse stays on the load path).
   */
  private authenticRecord(row: ContractRow): RecoveryContract {
    this.verifyRowMac(row);
    let r: RecoveryContract;
    try {
      r = JSON.parse(Buffer.from(row.record).toString('utf8')) as RecoveryContract;
    } catch {
      throw new RecordIntegrityError('RECORD_MALFORMED', row.contract_id, 'contract record is not valid JSON');
    }
    if (r === null || typeof r !== 'object' || r.provenance === null || typeof r.provenance !== 'object' || r.protected_artifacts === null || typeof r.protected_artifacts !== 'object') {
      throw new RecordIntegrityError('RECORD_MALFORMED', row.contract_id, 'contract record does not match the schema');
    }
    this.checkIndexColumns(row, r);
    return r;
  }

  private checkIndexColumns(row: ContractRow, r: RecoveryContract): void {
    if (
      r.contract_id !== row.contract_id ||
      r.operation_id !== row.operation_id ||
      r.provenance.authorization_id !== row.authorization_id ||
      r.target_identity_digest !== row.target_identity_digest ||
      r.state !== row.state ||
      r.state_version !== row.state_version ||
      r.expires_at !== row.expires_at ||
      r.terminal_at !== row.terminal_at
    ) {
      throw new RecordIntegrityError('INDEX_MISMATCH', row.contract_id, 'contract index columns differ from the authenticated record');
    }
  }

  /** Authenticates the row (MAC over store id, row key and record bytes), parses it, cross-checks index columns. */
  private verifyRow(row: ContractRow): RecoveryContract {
    this.verifyRowMac(row);
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(row.record).toString('utf8'));
    } catch {
      throw new RecordIntegrityError('RECORD_MALFORMED', row.contract_id, 'contract record is not valid JSON');
    }
    const result = recoveryContractSchema.safeParse(parsed);
    if (!result.success) throw new RecordIntegrityError('RECORD_MALFORMED', row.contract_id, 'contract record does not match the schema');
    const r = result.data as RecoveryContract;
    this.checkIndexColumns(row, r);
    return deepFreeze(r) as RecoveryContract;
  }

  private loadIn(contractId: string): RecoveryContract {
    if (!isSafeToken(contractId)) throw new TypeError('contract store: "contractId" must be a safe token');
    const row = this.#stmt.getContract.get(contractId) as ContractRow | undefined;
    if (row === undefined) throw new ContractNotFoundError(contractId);
    return this.verifyRow(row);
  }

  load(contractId: string): RecoveryContract {
    this.assertOpen();
    return this.#db.transaction(() => this.loadIn(contractId))();
  }

  list(filter: ListFilter = {}): readonly RecoveryContract[] {
    this.assertOpen();
    const limit = filter.limit ?? 100;
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000) throw new TypeError('list: "limit" must be an integer in 1..1000');
    if (filter.operationId !== undefined && !isSafeToken(filter.operationId)) throw new TypeError('list: "operationId" must be a safe token');
    if (filter.afterContractId !== undefined && !isSafeToken(filter.afterContractId)) throw new TypeError('list: "afterContractId" must be a safe token');
    const states = filter.states ?? null;
    if (states !== null) {
      if (!Array.isArray(states) || states.some((s) => !(Object.values(RecoveryState) as string[]).includes(s))) {
        throw new TypeError('list: "states" must be an array of RecoveryState');
      }
    }
    return this.#db.transaction(() => {
      const clauses: string[] = [];
      const params: unknown[] = [];
      if (states !== null) {
        clauses.push(`state IN (${states.map(() => '?').join(',') || "''"})`);
        params.push(...states);
      }
      if (filter.operationId !== undefined) {
        clauses.push('operation_id = ?');
        params.push(filter.operationId);
      }
      if (filter.afterContractId !== undefined) {
        clauses.push('contract_id > ?');
        params.push(filter.afterContractId);
      }
      const where = clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '';
      const rows = this.#db.prepare(`SELECT * FROM contracts ${where} ORDER BY contract_id LIMIT ?`).all(...params, limit) as ContractRow[];
      return Object.freeze(rows.map((row) => this.verifyRow(row)));
    })();
  }

  listAuditEvents(filter: { readonly contractId?: string; readonly afterSequence?: number; readonly limit?: number } = {}): readonly AuditEventView[] {
    this.assertOpen();
    const limit = filter.limit ?? 100;
    const after = filter.afterSequence ?? 0;
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > 10_000) throw new TypeError('listAuditEvents: "limit" must be an integer in 1..10000');
    if (!Number.isSafeInteger(after) || after < 0) throw new TypeError('listAuditEvents: "afterSequence" must be a non-negative integer');
    if (filter.contractId !== undefined && !isSafeToken(filter.contractId)) throw new TypeError('listAuditEvents: "contractId" must be a safe token');
    const id = filter.contractId ?? null;
    const rows = this.#db.transaction(
      () => this.#stmt.auditList.all(id, id, after, limit) as { sequence: number; contract_id: string; body: Buffer; mac: Buffer; previous_mac: Buffer | null }[],
    )();
    // Each returned row is authenticated against its predecessor's stored MAC (one chain link), so a
    // tampered row is an AuditChainError, never a parse error or a forged event. The whole-chain walk
    // (prefix complete, head matches the anchor) stays verifyAuditChain()'s job.
    return Object.freeze(
      rows.map((r) => {
        const previous = r.sequence === 1 ? this.#genesisMac : r.previous_mac;
        if (previous === null || !(r.body instanceof Uint8Array) || !(r.mac instanceof Uint8Array)) throw new AuditChainError(r.sequence);
        const expected = auditRowMac(this.#keys.auditChain, this.#storeId, r.sequence, r.contract_id, previous, r.body);
        if (!macMatches(expected, r.mac)) throw new AuditChainError(r.sequence);
        let body: unknown;
        try {
          body = JSON.parse(r.body.toString('utf8'));
        } catch {
          throw new AuditChainError(r.sequence);
        }
        if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new AuditChainError(r.sequence);
        return deepFreeze({ sequence: r.sequence, ...(body as AuditEventBody) });
      }),
    );
  }

  /**
   * Appends one value-free refusal row (docs/DESIGN.md §6) to the HMAC-chained audit in its own BEGIN
   * IMMEDIATE transaction, then advances the anchor. Nothing else changes. Input is strict (unknown fields,
   * free text and non-token values are refused with a TypeError naming the fields, never echoing values).
   */
  recordRefusal(input: unknown): AuditEventView {
    const parsed = refusalAuditInputSchema.safeParse(input);
    if (!parsed.success) throw new TypeError(`recordRefusal: "input" is invalid at ${zodPaths(parsed.error)}`);
    const r = parsed.data;
    const now = this.now();
    return this.write('recordRefusal', () => {
      const body: AuditEventBody = {
        at: now,
        kind: 'refusal',
        contract_id: r.contractId ?? '',
        operation_id: r.operationId ?? null,
        event: r.gate,
        from_state: null,
        to_state: null,
        state_version: null,
        capability: null,
        endpoint_symbol: null,
        http_method: null,
        target_identity_digest: null,
        intent_digest: null,
        outcome_class: r.refusalClass,
        evidence_digest: r.artifactDigest ?? null,
        authority_key_id: null,
      };
      this.appendAudit(body);
      return deepFreeze({ sequence: this.head().sequence, ...body });
    });
  }

  private writeContract(record: RecoveryContract, expectedVersion: number | null): void {
    const bytes = canonicalBytes(record);
    const mac = Buffer.from(rowMac(this.#keys.recordMac, MacDomain.CONTRACT, [this.#storeId, record.contract_id, bytes]));
    const recordBuf = Buffer.from(bytes);
    if (expectedVersion === null) {
      this.#stmt.insertContract.run(
        record.contract_id,
        record.operation_id,
        record.provenance.authorization_id,
        record.target_identity_digest,
        record.state,
        record.state_version,
        record.expires_at,
        record.terminal_at,
        recordBuf,
        mac,
      );
      return;
    }
    const info = this.#stmt.updateContract.run(
      record.state,
      record.state_version,
      record.expires_at,
      record.terminal_at,
      recordBuf,
      mac,
      record.contract_id,
      expectedVersion,
    );
    if (info.changes !== 1) throw new StaleStateVersionError(record.contract_id, expectedVersion, -1);
  }

  private appendAudit(body: AuditEventBody): void {
    const head = this.head();
    const sequence = head.sequence + 1;
    const bytes = canonicalBytes(body as unknown as CanonicalValue);
    const mac = auditRowMac(this.#keys.auditChain, this.#storeId, sequence, body.contract_id, head.mac, bytes);
    this.#stmt.insertAudit.run(sequence, body.contract_id, Buffer.from(bytes), Buffer.from(mac));
    this.#auditWritten = true;
  }

  private auditFor(
    contract: RecoveryContract,
    kind: AuditEventBody['kind'],
    event: string | null,
    from: string | null,
    now: number,
    extras: AuditExtras,
  ): void {
    this.appendAudit({
      at: now,
      kind,
      contract_id: contract.contract_id,
      operation_id: contract.operation_id,
      event,
      from_state: from,
      to_state: contract.state,
      state_version: contract.state_version,
      capability: contract.capability,
      endpoint_symbol: contract.endpoint_symbol,
      http_method: contract.http_method,
      target_identity_digest: contract.target_identity_digest,
      intent_digest: contract.intent_digest,
      outcome_class: extras.outcomeClass,
      evidence_digest: extras.evidenceDigest ?? null,
      authority_key_id: extras.authorityKeyId ?? null,
    });
  }

  // ---------------------------------------------------------------- reservations

  private reservationMac(target: string, contractId: string, acquiredAt: number): Uint8Array {
    return rowMac(this.#keys.recordMac, MacDomain.RESERVATION, [this.#storeId, target, contractId, String(acquiredAt)]);
  }

  private verifyReservationRow(row: ReservationRow): void {
    if (!macMatches(this.reservationMac(row.target_identity_digest, row.contract_id, row.acquired_at), row.mac)) {
      throw new RecordIntegrityError('RESERVATION_MAC', row.contract_id, 'target reservation failed authentication');
    }
  }

  private reservationOf(target: string): ReservationRow | null {
    const row = this.#stmt.getReservation.get(target) as ReservationRow | undefined;
    if (row === undefined) return null;
    this.verifyReservationRow(row);
    return row;
  }

  /** At most one reservation per target; the contracts table is cross-checked so a deleted row cannot help. */
  private acquireReservation(contract: RecoveryContract, now: number): void {
    const existing = this.reservationOf(contract.target_identity_digest);
    if (existing !== null) throw new TargetReservedError(contract.contract_id);
    // Cross-check against the contract rows, so a deleted reservation row cannot let a second holder in.
    for (const h of this.#stmt.holdersOfTarget.all(contract.target_identity_digest, contract.contract_id) as { contract_id: string }[]) {
      const holder = this.loadIn(h.contract_id);
      if (holder.state === RecoveryState.ROLLBACK_FAILED && holder.reservation_release !== null) continue;
      throw new TargetReservedError(contract.contract_id);
    }
    this.#stmt.insertReservation.run(
      contract.target_identity_digest,
      contract.contract_id,
      now,
      Buffer.from(this.reservationMac(contract.target_identity_digest, contract.contract_id, now)),
    );
  }

  private releaseReservationRow(contract: RecoveryContract): void {
    const existing = this.reservationOf(contract.target_identity_digest);
    if (existing === null || existing.contract_id !== contract.contract_id) {
      throw new PreconditionError('NOT_HOLDING_RESERVATION', contract.contract_id, 'contract does not hold its target reservation');
    }
    this.#stmt.deleteReservation.run(contract.target_identity_digest, contract.contract_id);
  }

  rateWindows(): RateWindowsView {
    this.assertOpen();
    return this.#db.transaction(() => this.#rate.view(this.now()))();
  }

  holdsReservation(contractId: string): boolean {
    this.assertOpen();
    return this.#db.transaction(() => {
      const contract = this.loadIn(contractId);
      const r = this.reservationOf(contract.target_identity_digest);
      return r !== null && r.contract_id === contractId;
    })();
  }

  // ---------------------------------------------------------------- transitions

  /**
   * The one way a state changes: CAS on state_version, the state-machine lib decides the next state,
   * the reservation follows the state (acquired entering a holding state, released leaving one), the
   * row is rewritten with a new MAC, one audit row is appended, and the rate windows are updated —
   * all inside the caller's transaction.
   */
  private transition(
    current: RecoveryContract,
    expectedVersion: number,
    event: RecoveryEvent,
    patch: ContractPatch,
    extras: AuditExtras,
    now: number,
  ): RecoveryContract {
    if (current.state_version !== expectedVersion) throw new StaleStateVersionError(current.contract_id, expectedVersion, current.state_version);
    const to = nextState(current.state, event);
    const terminal = TERMINAL_STATES.has(to);
    const next = deepFreeze({
      ...current,
      ...patch,
      state: to,
      state_version: current.state_version + 1,
      updated_at: now,
      terminal_at: terminal ? now : current.terminal_at,
      last_outcome_class: extras.outcomeClass,
    }) as RecoveryContract;
    const held = RESERVATION_HOLDING_STATES.has(current.state);
    const holds = RESERVATION_HOLDING_STATES.has(to);
    if (!held && holds) this.acquireReservation(next, now);
    if (held && !holds) this.releaseReservationRow(next);
    this.writeContract(next, expectedVersion);
    this.auditFor(next, 'transition', event, current.state, now, extras);
    this.#rate.afterTransition(current, next, now);
    return next;
  }

  private requireOwner(contract: RecoveryContract): void {
    const me = this.processOwner();
    if (contract.owner === null || !sameOwner(contract.owner, me)) throw new OwnerMismatchError(contract.contract_id);
  }

  private processOwner(): ProcessOwner {
    if (this.#owner === null) this.#owner = currentProcessOwner();
    return this.#owner;
  }

  // ---------------------------------------------------------------- public operations

  /**
   * The duplicates `create` refuses first, in its order: an existing contract id, an authorization that
   * already created a contract, an open contract of the operation. Runs inside the caller's transaction;
   * the rate / blast-radius decision follows it.
   */
  private duplicateChecks(
    c: { readonly contractId: string | null; readonly operationId: string; readonly authorizationId: string },
  ): void {
    if (c.contractId !== null && this.#stmt.getContract.get(c.contractId) !== undefined) {
      throw new PreconditionError('DUPLICATE_CONTRACT', c.contractId, 'a contract with this id exists');
    }
    if (this.#stmt.byAuthorization.get(c.authorizationId) !== undefined) {
      throw new PreconditionError('DUPLICATE_AUTHORIZATION', c.contractId, 'this authorization already created a contract');
    }
    if (this.#stmt.openByOperation.get(c.operationId) !== undefined) {
      throw new PreconditionError('DUPLICATE_OPERATION', c.contractId, 'the operation already has an open contract');
    }
  }

  /**
   * Read-only: throws exactly what `create(input)` would refuse at this instant before writing (duplicates,
   * then the rate / blast-radius decision), and writes nothing — no row, no audit, no window. A caller
   * decides containment with it before it consumes anything; `create` repeats the checks atomically.
   */
  precheckCreate(input: NewContractInput): void {
    this.assertOpen();
    const parsed = newContractInputSchema.safeParse(input);
    if (!parsed.success) throw new TypeError(`precheckCreate: invalid input at ${zodPaths(parsed.error)}`);
    const i = parsed.data;
    const now = this.now();
    if (i.expires_at <= now) throw new PreconditionError('CONTRACT_EXPIRED', i.contract_id ?? null, 'contract would be created already expired');
    this.#db.transaction(() => {
      this.duplicateChecks({ contractId: i.contract_id ?? null, operationId: i.operation_id, authorizationId: i.provenance.authorization_id });
      this.#rate.checkCreate(i, now);
    })();
  }

  create(input: NewContractInput, options: CreateOptions = {}): RecoveryContract {
    this.assertOpen();
    const parsed = newContractInputSchema.safeParse(input);
    if (!parsed.success) throw new TypeError(`create: invalid input at ${zodPaths(parsed.error)}`);
    if (options === null || typeof options !== 'object') throw new TypeError('create: "options" must be an object');
    const consume = options.consume;
    if (consume !== undefined && typeof consume !== 'function') throw new TypeError('create: "options.consume" must be a function');
    const i = parsed.data;
    const now = this.now();
    const contractId = i.contract_id ?? `ctr-${randomBytes(16).toString('hex')}`;
    if (i.expires_at <= now) throw new PreconditionError('CONTRACT_EXPIRED', contractId, 'contract would be created already expired');

    const envelopes = new Map<ProtectedArtifactPurpose, Buffer>();
    for (const purpose of PROTECTED_ARTIFACT_PURPOSES) {
      const value = purpose === 'target-identity' ? i.target_identity : purpose === 'intent' ? i.intent : i.snapshot;
      let plaintext: Uint8Array;
      try {
        plaintext = canonicalBytes(value, PROTECTED_ARTIFACT_LIMITS);
      } catch {
        // The canonical error's path could name keys of the artifact: report the purpose only.
        throw new ProtectedArtifactError('ENCODE_FAILED', contractId, purpose);
      }
      try {
        envelopes.set(purpose, Buffer.from(aeadSeal(this.#keys.encryption, plaintext, aadOf(contractId, purpose))));
      } finally {
        plaintext.fill(0);
      }
    }
    const ref = (p: ProtectedArtifactPurpose) => {
      const e = envelopes.get(p) as Buffer;
      return { envelope_sha256: sha256Hex(e), envelope_bytes: e.length };
    };
    const record = deepFreeze({
      schema_version: CONTRACT_SCHEMA_VERSION,
      contract_id: contractId,
      operation_id: i.operation_id,
      capability: i.capability,
      endpoint_symbol: i.endpoint_symbol,
      http_method: i.http_method,
      target_identity_digest: i.target_identity_digest,
      target_fingerprint: i.target_fingerprint,
      intent_digest: i.intent_digest,
      snapshot_digest: i.snapshot_digest,
      rollback_plan_version: i.rollback_plan_version,
      lifecycle_locator: i.lifecycle_locator,
      protected_artifacts: { 'target-identity': ref('target-identity'), intent: ref('intent'), snapshot: ref('snapshot') },
      artifacts_purged_at: null,
      provenance: { ...i.provenance },
      created_at: now,
      expires_at: i.expires_at,
      confirmation: null,
      state: RecoveryState.PREPARING,
      state_version: 1,
      updated_at: now,
      terminal_at: null,
      verified_target_fingerprint: null,
      verified_lifecycle_locator: null,
      rollback_verified_target_fingerprint: null,
      rollback_verified_lifecycle_locator: null,
      owner: null,
      reconciliation: null,
      resolution: null,
      reservation_release: null,
      last_outcome_class: null,
    }) as RecoveryContract;
    // Self-check: what we write must be what load accepts.
    recoveryContractSchema.parse(record);

    return this.write('create', () => {
      const authorizationId = record.provenance.authorization_id;
      this.duplicateChecks({ contractId, operationId: record.operation_id, authorizationId });
      this.#rate.beforeCreate(record, now);
      // Last, under this transaction's write lock: every refusal above happened before anything was
      // consumed, and no other creation can change the decision until this one commits.
      if (consume !== undefined && consume(authorizationId) !== true) {
        throw new PreconditionError('AUTHORIZATION_CONSUMED', contractId, 'the authorization was already consumed');
      }
      this.writeContract(record, null);
      for (const purpose of PROTECTED_ARTIFACT_PURPOSES) {
        this.#stmt.insertArtifact.run(contractId, purpose, envelopes.get(purpose));
      }
      this.auditFor(record, 'create', null, null, now, { outcomeClass: null });
      return record;
    });
  }

  markPrepared(contractId: string, expectedVersion: number): RecoveryContract {
    return this.write('markPrepared', () => {
      const c = this.loadIn(contractId);
      const now = this.now();
      if (c.state === RecoveryState.PREPARING && c.expires_at <= now) {
        throw new PreconditionError('CONTRACT_EXPIRED', contractId, 'contract has expired');
      }
      return this.transition(c, expectedVersion, RecoveryEvent.PREPARE, {}, { outcomeClass: null }, now);
    });
  }

  confirm(contractId: string, evidence: unknown): RecoveryContract {
    return this.write('confirm', () => {
      const c = this.loadIn(contractId);
      const now = this.now();
      if (c.state !== RecoveryState.PREPARED) throw new PreconditionError('WRONG_STATE', contractId, `confirmation needs PREPARED, contract is ${c.state}`);
      if (c.confirmation !== null) throw new PreconditionError('ALREADY_CONFIRMED', contractId, 'contract is already confirmed');
      if (c.expires_at <= now) throw new PreconditionError('CONTRACT_EXPIRED', contractId, 'contract has expired');
      if (this.#confirmationVerifier === undefined) throw new PreconditionError('VERIFIER_MISSING', contractId, 'no confirmation verifier is configured');
      const verified = verifiedConfirmationSchema.safeParse(this.#confirmationVerifier.verify(c, evidence, now));
      if (!verified.success) throw new EvidenceMismatchError('verifier_result');
      const v = verified.data;
      if (v.contractId !== c.contract_id) throw new EvidenceMismatchError('contract_id');
      if (v.expiresAt <= now) throw new PreconditionError('CONFIRMATION_EXPIRED', contractId, 'confirmation has expired');
      const next = deepFreeze({
        ...c,
        confirmation: {
          confirmation_id: v.confirmationId,
          confirmation_digest: v.confirmationDigest,
          authority_key_id: v.authorityKeyId,
          confirmed_at: now,
          expires_at: Math.min(v.expiresAt, c.expires_at),
        },
        state_version: c.state_version + 1,
        updated_at: now,
      }) as RecoveryContract;
      this.writeContract(next, c.state_version);
      this.auditFor(next, 'confirmation', null, c.state, now, {
        outcomeClass: 'CONFIRMED',
        evidenceDigest: v.confirmationDigest,
        authorityKeyId: v.authorityKeyId,
      });
      return next;
    });
  }

  /**
   * A restore is accepted only while nothing is mid-flight on the appliance: an EXECUTING, ROLLING_BACK or
   * RECONCILIATION contract of the restored copy may disagree with what the appliance now holds.
   */
  private refuseRestoreWithWorkInFlight(): void {
    const row = this.#db.prepare("SELECT contract_id FROM contracts WHERE state IN ('EXECUTING','ROLLING_BACK','RECONCILIATION') ORDER BY contract_id LIMIT 1").get() as
      | { contract_id: string }
      | undefined;
    if (row !== undefined) {
      throw new PreconditionError('RESTORE_WITH_WORK_IN_FLIGHT', row.contract_id, 'a restore is not accepted while a contract is EXECUTING, ROLLING_BACK or RECONCILIATION');
    }
  }

  /** Re-points the anchor at the verified head, whatever it said, with a new acceptance time (never earlier). */
  private acceptAnchor(): void {
    this.#db
      .transaction(() => {
        const prior = this.#anchor.read();
        const now = this.now();
        const previous = prior?.acceptedRestoreAt ?? null;
        const acceptedAt = previous === null ? now : Math.max(now, previous);
        // The acceptance is in the chain itself, and the anchor points past it.
        this.appendAudit(restoreAcceptedAuditBody(acceptedAt));
        // The rate row follows the audit head in the same transaction (as in every write).
        this.#rate.flush(this.head().sequence);
        this.writeAnchor(this.head(), acceptedAt);
      })
      .immediate();
  }

  /**
   * After an operator re-anchored a restored backup: work prepared before the backup may have been
   * executed since, so no PREPARING/PREPARED contract of the restored copy may start — all expire
   * (audited as RESTORED_FROM_BACKUP). In-flight rows are left to reconcileInterrupted(); VERIFIED
   * rollbacks stay guarded by their sealed-fingerprint pre-read.
   */
  private expireAfterRestore(): void {
    this.write('expireAfterRestore', () => {
      const now = this.now();
      for (const row of this.#db.prepare("SELECT * FROM contracts WHERE state IN ('PREPARING','PREPARED') ORDER BY contract_id").all() as ContractRow[]) {
        const c = this.verifyRow(row);
        this.transition(c, c.state_version, RecoveryEvent.EXPIRE, {}, { outcomeClass: 'RESTORED_FROM_BACKUP' }, now);
      }
    });
  }

  /** PREPARING/PREPARED contracts whose expiry has passed → EXPIRED. Never touches anything later. */
  expire(): readonly string[] {
    return this.write('expire', () => {
      const now = this.now();
      const rows = this.#stmt.expirable.all(now) as ContractRow[];
      const expired: string[] = [];
      for (const row of rows) {
        const c = this.verifyRow(row);
        this.transition(c, c.state_version, RecoveryEvent.EXPIRE, {}, { outcomeClass: 'EXPIRED' }, now);
        expired.push(c.contract_id);
      }
      return Object.freeze(expired);
    });
  }

  resolveReconciliation(contractId: string, signedResolution: unknown): RecoveryContract {
    return this.write('resolveReconciliation', () => {
      const c = this.loadIn(contractId);
      const now = this.now();
      if (c.state !== RecoveryState.RECONCILIATION || c.reconciliation === null) {
        throw new PreconditionError('WRONG_STATE', contractId, `resolution needs RECONCILIATION, contract is ${c.state}`);
      }
      if (this.#reconciliationVerifier === undefined) throw new PreconditionError('VERIFIER_MISSING', contractId, 'no reconciliation verifier is configured');
      const parsed = verifiedResolutionSchema.safeParse(this.#reconciliationVerifier.verify(c, signedResolution, now));
      if (!parsed.success) throw new EvidenceMismatchError('verifier_result');
      const v = parsed.data;
      if (v.authorityRole !== 'reconciliation') throw new EvidenceMismatchError('authority_role');
      if (v.contractId !== c.contract_id) throw new EvidenceMismatchError('contract_id');
      if (v.operationId !== c.operation_id) throw new EvidenceMismatchError('operation_id');
      if (v.stateVersion !== c.state_version) throw new StaleStateVersionError(contractId, v.stateVersion, c.state_version);
      if (v.origin !== c.reconciliation.origin) throw new EvidenceMismatchError('origin');
      if (v.observedLifecycleLocator !== c.lifecycle_locator) throw new EvidenceMismatchError('lifecycle_locator');
      const forward = v.outcome === 'FORWARD_APPLIED' || v.outcome === 'FORWARD_NOT_APPLIED';
      if (forward !== (v.origin === 'EXECUTING')) throw new EvidenceMismatchError('outcome');
      const patch: ContractPatch = {
        owner: null,
        resolution: {
          resolution_id: v.resolutionId,
          resolution_digest: v.resolutionDigest,
          authority_key_id: v.authorityKeyId,
          outcome: v.outcome,
          resolved_at: now,
        },
      };
      let event: RecoveryEvent;
      switch (v.outcome) {
        case 'FORWARD_APPLIED':
          if (v.observedFingerprint === null) throw new EvidenceMismatchError('observed_fingerprint');
          // Forward-applied evidence seals the post-forward fingerprint and locator it signed.
          patch.verified_target_fingerprint = v.observedFingerprint;
          patch.verified_lifecycle_locator = v.observedLifecycleLocator;
          event = RecoveryEvent.RESOLVE_FORWARD_APPLIED;
          break;
        case 'FORWARD_NOT_APPLIED':
          event = RecoveryEvent.RESOLVE_FORWARD_NOT_APPLIED;
          break;
        case 'ROLLBACK_APPLIED':
          // Rollback-origin evidence never seals a forward fingerprint; it records the rollback observation.
          patch.rollback_verified_target_fingerprint = v.observedFingerprint;
          patch.rollback_verified_lifecycle_locator = v.observedLifecycleLocator;
          event = RecoveryEvent.RESOLVE_ROLLBACK_APPLIED;
          break;
        default:
          event = RecoveryEvent.RESOLVE_ROLLBACK_NOT_APPLIED;
      }
      return this.transition(c, c.state_version, event, patch, {
        outcomeClass: `RESOLVED_${v.outcome}`,
        evidenceDigest: v.resolutionDigest,
        authorityKeyId: v.authorityKeyId,
      }, now);
    });
  }

  /** Clears a ROLLBACK_FAILED contract's target reservation, only with a verified release from the reconciliation role. */
  releaseRollbackFailedReservation(contractId: string, signedRelease: unknown): RecoveryContract {
    return this.write('releaseReservation', () => {
      const c = this.loadIn(contractId);
      const now = this.now();
      if (c.state !== RecoveryState.ROLLBACK_FAILED) throw new PreconditionError('WRONG_STATE', contractId, `release needs ROLLBACK_FAILED, contract is ${c.state}`);
      const held = this.reservationOf(c.target_identity_digest);
      if (held === null || held.contract_id !== contractId || c.reservation_release !== null) {
        throw new PreconditionError('NOT_HOLDING_RESERVATION', contractId, 'contract does not hold its target reservation');
      }
      if (this.#releaseVerifier === undefined) throw new PreconditionError('VERIFIER_MISSING', contractId, 'no reservation release verifier is configured');
      const parsed = verifiedReleaseSchema.safeParse(this.#releaseVerifier.verify(c, signedRelease, now));
      if (!parsed.success) throw new EvidenceMismatchError('verifier_result');
      const v = parsed.data;
      if (v.authorityRole !== 'reconciliation') throw new EvidenceMismatchError('authority_role');
      if (v.contractId !== c.contract_id) throw new EvidenceMismatchError('contract_id');
      if (v.operationId !== c.operation_id) throw new EvidenceMismatchError('operation_id');
      if (v.stateVersion !== c.state_version) throw new StaleStateVersionError(contractId, v.stateVersion, c.state_version);
      this.#stmt.deleteReservation.run(c.target_identity_digest, contractId);
      const next = deepFreeze({
        ...c,
        reservation_release: { release_id: v.releaseId, release_digest: v.releaseDigest, authority_key_id: v.authorityKeyId, released_at: now },
        state_version: c.state_version + 1,
        updated_at: now,
      }) as RecoveryContract;
      this.writeContract(next, c.state_version);
      this.auditFor(next, 'reservation-release', null, c.state, now, {
        outcomeClass: 'RESERVATION_RELEASED',
        evidenceDigest: v.releaseDigest,
        authorityKeyId: v.authorityKeyId,
      });
      return next;
    });
  }

  /**
   * Retention: protected artifacts of terminal contracts older than the retention period are
   * overwritten with zeros, then deleted (secure_delete zeroes the freed pages). A ROLLBACK_FAILED
   * contract keeps its snapshot until the retention period has passed since its reservation release. Audit rows stay.
   */
  purgeExpiredArtifacts(): readonly string[] {
    return this.write('purge', () => {
      const now = this.now();
      const rows = this.#stmt.purgeable.all(now - this.#retentionMs) as ContractRow[];
      const purged: string[] = [];
      for (const row of rows) {
        const c = this.verifyRow(row);
        if (!isPurgeable(c, now, this.#retentionMs)) continue;
        this.#stmt.zeroArtifacts.run(c.contract_id);
        this.#stmt.deleteArtifacts.run(c.contract_id);
        const next = deepFreeze({ ...c, artifacts_purged_at: now, state_version: c.state_version + 1, updated_at: now }) as RecoveryContract;
        this.writeContract(next, c.state_version);
        this.auditFor(next, 'artifact-purge', null, c.state, now, { outcomeClass: 'ARTIFACTS_PURGED' });
        purged.push(c.contract_id);
      }
      return Object.freeze(purged);
    });
  }

  /** Checkpoints and truncates the WAL, then VACUUMs, so purged pages leave the files entirely. */
  compact(): void {
    this.assertOpen();
    this.#db.pragma('wal_checkpoint(TRUNCATE)');
    this.#db.exec('VACUUM');
    this.#db.pragma('wal_checkpoint(TRUNCATE)');
  }

  /**
   * BENCHMARK ONLY (not reachable from either public entry): runs `fn` in one outer transaction, so the
   * writes inside become savepoints and commit together. Used to build large stores quickly.
   */
  batchForBenchmark<T>(fn: () => T): T {
    this.assertOpen();
    return this.#db.transaction(fn).immediate();
  }

  // ---------------------------------------------------------------- executor operations

  beginExecution(contractId: string, expectedVersion: number): RecoveryContract {
    const owner = this.processOwner();
    return this.write('beginExecution', () => {
      this.checkAgainstAnchor();
      const c = this.loadIn(contractId);
      const now = this.now();
      if (c.state_version !== expectedVersion) throw new StaleStateVersionError(contractId, expectedVersion, c.state_version);
      nextState(c.state, RecoveryEvent.BEGIN_EXECUTION);
      if (c.confirmation === null) throw new PreconditionError('NOT_CONFIRMED', contractId, 'contract is not confirmed');
      if (c.expires_at <= now) throw new PreconditionError('CONTRACT_EXPIRED', contractId, 'contract has expired');
      if (c.confirmation.expires_at <= now) throw new PreconditionError('CONFIRMATION_EXPIRED', contractId, 'confirmation has expired');
      this.#rate.beforeAcquire(c, now);
      return this.transition(c, expectedVersion, RecoveryEvent.BEGIN_EXECUTION, { owner }, { outcomeClass: null }, now);
    });
  }

  markExecutionVerified(contractId: string, expectedVersion: number, seal: VerifiedSeal, configHistory?: ConfigHistoryRecord): RecoveryContract {
    return this.markVerified('markExecutionVerified', contractId, expectedVersion, seal, RecoveryEvent.EXECUTION_VERIFIED, {
      fingerprint: 'verified_target_fingerprint',
      locator: 'verified_lifecycle_locator',
    }, configHistory);
  }

  markExecutionFailed(contractId: string, expectedVersion: number, outcomeClass: string, configHistory?: ConfigHistoryRecord): RecoveryContract {
    return this.endInFlight('markExecutionFailed', contractId, expectedVersion, RecoveryEvent.EXECUTION_FAILED, outcomeClass, null, configHistory);
  }

  markExecutionAmbiguous(contractId: string, expectedVersion: number, outcomeClass: string, configHistory?: ConfigHistoryRecord): RecoveryContract {
    return this.endInFlight('markExecutionAmbiguous', contractId, expectedVersion, RecoveryEvent.EXECUTION_AMBIGUOUS, outcomeClass, 'EXECUTING', configHistory);
  }

  beginRollback(contractId: string, expectedVersion: number): RecoveryContract {
    const owner = this.processOwner();
    return this.write('beginRollback', () => {
      this.checkAgainstAnchor();
      const c = this.loadIn(contractId);
      const now = this.now();
      if (c.state_version !== expectedVersion) throw new StaleStateVersionError(contractId, expectedVersion, c.state_version);
      nextState(c.state, RecoveryEvent.BEGIN_ROLLBACK);
      this.#rate.beforeAcquire(c, now);
      return this.transition(c, expectedVersion, RecoveryEvent.BEGIN_ROLLBACK, { owner }, { outcomeClass: null }, now);
    });
  }

  markRollbackVerified(contractId: string, expectedVersion: number, seal: VerifiedSeal, configHistory?: ConfigHistoryRecord): RecoveryContract {
    return this.markVerified('markRollbackVerified', contractId, expectedVersion, seal, RecoveryEvent.ROLLBACK_VERIFIED, {
      fingerprint: 'rollback_verified_target_fingerprint',
      locator: 'rollback_verified_lifecycle_locator',
    }, configHistory);
  }

  /**
   * EXECUTING → VERIFIED or ROLLING_BACK → ROLLED_BACK: only the recorded owner, only at the contract's own
   * locator, sealing the verified fingerprint and locator atomically with the transition.
   */
  private markVerified(
    fn: string,
    contractId: string,
    expectedVersion: number,
    seal: VerifiedSeal,
    event: typeof RecoveryEvent.EXECUTION_VERIFIED | typeof RecoveryEvent.ROLLBACK_VERIFIED,
    columns: {
      readonly fingerprint: 'verified_target_fingerprint' | 'rollback_verified_target_fingerprint';
      readonly locator: 'verified_lifecycle_locator' | 'rollback_verified_lifecycle_locator';
    },
    configHistory?: ConfigHistoryRecord,
  ): RecoveryContract {
    const history = historyPatch(fn, event, configHistory);
    if (seal === null || typeof seal !== 'object') throw new TypeError(`${fn}: "seal" must be an object`);
    const fingerprint = hex64Schema.safeParse(seal.verifiedTargetFingerprint);
    if (!fingerprint.success) throw new TypeError(`${fn}: "verifiedTargetFingerprint" must be 64 lowercase hex digits`);
    const locator = locatorSchema.safeParse(seal.verifiedLifecycleLocator);
    if (!locator.success) throw new TypeError(`${fn}: "verifiedLifecycleLocator" must be a non-negative integer`);
    return this.write(fn, () => {
      const c = this.loadIn(contractId);
      const now = this.now();
      nextState(c.state, event);
      this.requireOwner(c);
      if (locator.data !== c.lifecycle_locator) throw new BindingMismatchError('lifecycle_locator');
      return this.transition(c, expectedVersion, event, {
        owner: null,
        [columns.fingerprint]: fingerprint.data,
        [columns.locator]: locator.data,
        ...history.patch,
      }, { outcomeClass: 'VERIFIED_SUCCESS', evidenceDigest: history.evidenceDigest }, now);
    });
  }

  markRollbackFailed(contractId: string, expectedVersion: number, outcomeClass: string, configHistory?: ConfigHistoryRecord): RecoveryContract {
    return this.endInFlight('markRollbackFailed', contractId, expectedVersion, RecoveryEvent.ROLLBACK_FAILED, outcomeClass, null, configHistory);
  }

  markRollbackAmbiguous(contractId: string, expectedVersion: number, outcomeClass: string, configHistory?: ConfigHistoryRecord): RecoveryContract {
    return this.endInFlight('markRollbackAmbiguous', contractId, expectedVersion, RecoveryEvent.ROLLBACK_AMBIGUOUS, outcomeClass, 'ROLLING_BACK', configHistory);
  }

  private endInFlight(
    operation: string,
    contractId: string,
    expectedVersion: number,
    event: RecoveryEvent,
    outcomeClass: string,
    reconciliationOrigin: 'EXECUTING' | 'ROLLING_BACK' | null,
    configHistory?: ConfigHistoryRecord,
  ): RecoveryContract {
    if (!outcomeClassSchema.safeParse(outcomeClass).success) throw new TypeError(`${operation}: "outcomeClass" must match [A-Z][A-Z0-9_]{0,63}`);
    const history = historyPatch(operation, event, configHistory);
    return this.write(operation, () => {
      const c = this.loadIn(contractId);
      const now = this.now();
      nextState(c.state, event);
      this.requireOwner(c);
      const patch: ContractPatch = { owner: null, ...history.patch };
      if (reconciliationOrigin !== null) patch.reconciliation = { origin: reconciliationOrigin, entered_at: now, outcome_class: outcomeClass };
      return this.transition(c, expectedVersion, event, patch, { outcomeClass, evidenceDigest: history.evidenceDigest }, now);
    });
  }

  /**
   * Moves EXECUTING/ROLLING_BACK contracts whose owner process is dead (no such pid, another start
   * time, or another boot) to RECONCILIATION. A live owner's contract — this process or another — is
   * left alone. No network call; nothing is retried.
   */
  reconcileInterrupted(): readonly ReconciledContract[] {
    return this.write('reconcileInterrupted', () => {
      const now = this.now();
      const moved: ReconciledContract[] = [];
      for (const row of this.#stmt.inFlight.all() as ContractRow[]) {
        const c = this.verifyRow(row);
        if (c.owner !== null && isOwnerAlive(c.owner)) continue;
        const origin = c.state as 'EXECUTING' | 'ROLLING_BACK';
        const event = origin === 'EXECUTING' ? RecoveryEvent.EXECUTION_AMBIGUOUS : RecoveryEvent.ROLLBACK_AMBIGUOUS;
        this.transition(c, c.state_version, event, {
          owner: null,
          reconciliation: { origin, entered_at: now, outcome_class: 'INTERRUPTED' },
        }, { outcomeClass: 'INTERRUPTED' }, now);
        moved.push(Object.freeze({ contract_id: c.contract_id, from_state: origin }));
      }
      return Object.freeze(moved);
    });
  }

  decryptProtectedArtifact(contractId: string, purpose: ProtectedArtifactPurpose): CanonicalValue {
    this.assertOpen();
    if (!(PROTECTED_ARTIFACT_PURPOSES as readonly string[]).includes(purpose)) {
      throw new TypeError('decryptProtectedArtifact: "purpose" must be target-identity, intent or snapshot');
    }
    return this.#db.transaction(() => {
      const c = this.loadIn(contractId);
      if (c.artifacts_purged_at !== null) throw new ProtectedArtifactError('PURGED', contractId, purpose);
      const row = this.#stmt.getArtifact.get(contractId, purpose) as { envelope: Buffer } | undefined;
      if (row === undefined) throw new ProtectedArtifactError('MISSING', contractId, purpose);
      const ref = c.protected_artifacts[purpose];
      if (row.envelope.length !== ref.envelope_bytes || sha256Hex(row.envelope) !== ref.envelope_sha256) {
        throw new RecordIntegrityError('ARTIFACT_DIGEST', contractId, `protected artifact ${purpose} does not match the authenticated record`);
      }
      let plaintext: Uint8Array;
      try {
        plaintext = aeadOpen(this.#keys.encryption, row.envelope, aadOf(contractId, purpose));
      } catch {
        throw new ProtectedArtifactError('DECRYPT_FAILED', contractId, purpose);
      }
      try {
        return deepFreeze(JSON.parse(Buffer.from(plaintext).toString('utf8')) as CanonicalValue);
      } catch {
        throw new ProtectedArtifactError('DECRYPT_FAILED', contractId, purpose);
      } finally {
        plaintext.fill(0);
      }
    })();
  }
}

interface ReservationRow {
  target_identity_digest: string;
  contract_id: string;
  acquired_at: number;
  mac: Buffer;
}


