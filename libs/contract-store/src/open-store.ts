import { dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { isSafeToken } from '@pfsense-mcp/canonical';
import { assertFunction, assertObject } from '@pfsense-mcp/foundation';
import type { AntiRollbackAnchor } from './anti-rollback-anchor.js';
import { auditGenesisMac } from './audit-chain.js';
import { DEFAULT_RETENTION_MS } from './contract-store-options.js';
import type { ContractStoreOptions } from './contract-store-options.js';
import { SchemaVersionError, StoreFileError, StoreRollbackError } from './contract-store-error.js';
import { crashHooksOf } from './crash-hooks.js';
import { FileAntiRollbackAnchor } from './file-anti-rollback-anchor.js';
import { readKeyEpoch } from './key-epoch.js';
import { RateGate } from './rate-gate.js';
import { expireAfterRestore, refuseRestoreWithWorkInFlight } from './restored-store.js';
import { CONTRACT_STORE_MIGRATIONS, executedMigrations, prepareSchema } from './schema-migrations.js';
import { assertSecureDirectory, assertSecureFile, createSecureFile } from './secure-store-path.js';
import { acceptAnchor, openAnchorCheck } from './store-anchor.js';
import { loadStoreKeys } from './store-keys.js';
import { loadOrCreateMeta } from './store-meta.js';
import { prepareStoreStatements } from './store-statements.js';
import type { StoreState } from './store-state.js';
import { refuseNewerStore } from './store-version-upgrade.js';
import { upgradeVersion, verifyEverything } from './verify-store-contents.js';

/**
 * `normal`: the store of a running server (created on first use, anchor compared then advanced, every
 * row verified against the chain). `reanchor`: README "Backup and restore". `accept-restore`: README
 * "Accepting a restored store". `verify`: for `verifyIntegrity` only — nothing is created, migrated,
 * advanced or verified at open.
 */
export type OpenMode = 'normal' | 'reanchor' | 'accept-restore' | 'verify';

/**
 * docs/DESIGN.md §3, §10: the key never sits next to the database, and a file
 * anchor next to the database would be rolled back together with it.
 */
function assertSeparated(options: ContractStoreOptions): void {
  const storeDir = resolve(options.directory);
  if (typeof options.masterKeyFile === 'string' && dirname(resolve(options.masterKeyFile)) === storeDir) {
    throw new StoreFileError('KEY_IN_STORE_DIRECTORY', options.masterKeyFile, 'master key file must not be in the store directory');
  }
  if ('file' in options.anchor && typeof options.anchor.file === 'string' && dirname(resolve(options.anchor.file)) === storeDir) {
    throw new StoreFileError('ANCHOR_IN_STORE_DIRECTORY', options.anchor.file, 'anchor file must not be in the store directory');
  }
}

/** Opens the contract store's database in `mode` and returns its state; fails closed on unsafe files, unknown schema, bad MACs or a rollback. */
export async function openStore(options: ContractStoreOptions, mode: OpenMode = 'normal'): Promise<StoreState> {
  const fn = 'SqliteRecoveryContractStore.open';
  assertObject(options, `${fn}: "options"`);
  if (typeof options.directory !== 'string' || options.directory.length === 0) throw new TypeError(`${fn}: "directory" must be a non-empty string`);
  if (options.fileName !== undefined && !isSafeToken(options.fileName)) throw new TypeError(`${fn}: "fileName" must be a safe token`);
  assertFunction(options.clock, `${fn}: "clock"`, 'a function returning UTC milliseconds');
  if (options.anchor === null || typeof options.anchor !== 'object') throw new TypeError(`${fn}: "anchor" must be an AntiRollbackAnchor or { file }`);
  if (options.retentionMs !== undefined && (!Number.isSafeInteger(options.retentionMs) || options.retentionMs < 0)) {
    throw new TypeError(`${fn}: "retentionMs" must be a non-negative safe integer`);
  }
  const busy = options.busyTimeoutMs ?? 10_000;
  if (!Number.isSafeInteger(busy) || busy < 0) throw new TypeError(`${fn}: "busyTimeoutMs" must be a non-negative safe integer`);

  const crashHooks = crashHooksOf(options, fn);
  assertSeparated(options);
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
    const meta = loadOrCreateMeta(db, keys, options.clock, mode !== 'verify', options.migrate === true && mode === 'normal', keyEpoch);
    const s: StoreState = Object.freeze({
      db,
      stmt: prepareStoreStatements(db),
      keys,
      storeId: meta.storeId,
      keyEpoch,
      genesisMac: auditGenesisMac(keys.auditChain, meta.storeId),
      clock: options.clock,
      anchor,
      confirmationVerifier: options.confirmationVerifier,
      reconciliationVerifier: options.reconciliationVerifier,
      releaseVerifier: options.reservationReleaseVerifier,
      retentionMs: options.retentionMs ?? DEFAULT_RETENTION_MS,
      crashHooks,
      rate: new RateGate(db, keys.recordMac, meta.storeId, options.rateLimits ?? {}),
      life: { closed: false, auditWritten: false, owner: null },
    });
    if (mode === 'reanchor') {
      verifyEverything(s);
      openAnchorCheck(s, true);
      expireAfterRestore(s);
    } else if (mode === 'accept-restore') {
      verifyEverything(s);
      refuseRestoreWithWorkInFlight(s);
      acceptAnchor(s);
      expireAfterRestore(s);
    } else if (mode === 'normal') {
      // The anchor first: a database behind it (rows deleted at the tail, a restored copy) is reported as
      // that, not as the rows it then no longer accounts for.
      openAnchorCheck(s, false);
      if (meta.olderVersion !== null) upgradeVersion(s, meta.olderVersion, meta.createdAt);
      else if (options.verifyOnOpen !== false) verifyEverything(s);
    }
    return s;
  } catch (error) {
    db.close();
    throw error;
  }
}
