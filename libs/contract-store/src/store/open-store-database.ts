import { dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { isSafeToken } from '@pfsense-mcp/canonical';
import { assertFunction, assertObject } from '@pfsense-mcp/foundation';
import type { AntiRollbackAnchor } from '../anchor/anti-rollback-anchor.js';
import { StoreFileError, StoreRollbackError } from './contract-store-error.js';
import { crashHooksOf } from './crash-hooks.js';
import type { CrashHooks, WithCrashHooks } from './crash-hooks.js';
import { FileAntiRollbackAnchor } from '../anchor/file-anti-rollback-anchor.js';
import { prepareSchema } from '../migration/schema-migrations.js';
import type { MigrationSet } from '../migration/schema-migrations.js';
import { assertSecureDirectory, assertSecureFile, createSecureFile } from './secure-store-path.js';
import { loadStoreKeys } from './store-keys.js';
import type { MasterKeySource, StoreKeys } from './store-keys.js';

/** The options both SQLite stores take (each store's own options extend these). */
export interface StoreDatabaseOptions extends MasterKeySource, WithCrashHooks {
  /** Store directory: must exist, be a real directory owned by the process user, mode 0700. */
  readonly directory: string;
  /** Database file name inside `directory` (default: the store's own, see StoreDatabaseSpec). */
  readonly fileName?: string;
  /** Injected wall clock, UTC milliseconds. The stores never read the system clock themselves. */
  readonly clock: () => number;
  /** SQLite busy timeout for lock waits (default 10 s). */
  readonly busyTimeoutMs?: number;
  /** Run pending migrations of an older, known schema (default false). */
  readonly migrate?: boolean;
  /** The anti-rollback anchor: an implementation, or `{ file }` for the file anchor keyed by this store. */
  readonly anchor?: AntiRollbackAnchor | { readonly file: string };
}

/**
 * What differs between the two stores' files, each named. The contract store's tables reference each other,
 * so it sets `foreign_keys` and better-sqlite3's integer mode explicitly; the consumption store's single
 * table has no reference and its file has always been opened with the driver's defaults for both, which
 * `'driver-default'` keeps. (better-sqlite3 12 is built with foreign keys on and returns numbers by default,
 * so today both files run in the same modes — test/open-store-database.test.ts pins that.)
 */
export interface StoreDatabaseKind {
  readonly defaultFileName: string;
  /** Whether `options.anchor` must be given (the contract store) or may be left out (the consumption store). */
  readonly anchorRequired: boolean;
  /** `'on'`: `PRAGMA foreign_keys = ON` set explicitly; `'driver-default'`: left as better-sqlite3 has it. */
  readonly foreignKeys: 'on' | 'driver-default';
  /** `'numbers'`: `defaultSafeIntegers(false)` set explicitly; `'driver-default'`: left as better-sqlite3 has it. */
  readonly integers: 'numbers' | 'driver-default';
  readonly migrations: MigrationSet;
}

/** One open of a store file: its kind and what the caller's mode decides. */
export interface StoreDatabaseSpec extends StoreDatabaseKind {
  /** The caller's name, the start of every message (`SqliteRecoveryContractStore.open`). */
  readonly fn: string;
  /** A missing database file is created (no anchor mark may exist yet), or refused with this StoreFileError NOT_FOUND message. */
  readonly ifMissing: 'create' | { readonly refuse: string };
  /** Whether pending migrations run (the caller's `migrate`, as its mode allows). */
  readonly migrate: boolean;
  /** The store's own option checks, after the common ones and before anything is read. */
  readonly checkOptions?: () => void;
  /** Checks on the open database before the schema gate (the contract store's version and verify-mode checks). */
  readonly beforeSchema?: (db: Database.Database) => void;
}

export interface OpenedStoreDatabase {
  readonly db: Database.Database;
  readonly path: string;
  readonly keys: StoreKeys;
  /** The resolved anchor; null only when the spec allows none and none was given. */
  readonly anchor: AntiRollbackAnchor | null;
  readonly crashHooks: CrashHooks | undefined;
}

/**
 * The one way a store file is opened (docs/DESIGN.md §3, §10): the options checked, the key and a file anchor
 * kept out of the store directory (they would be rolled back or copied together with it), the keys loaded,
 * the anchor resolved, the directory and every file (database, `-wal`, `-shm`) owned, 0700/0600 and not a
 * symlink, a missing database next to an anchor mark refused as a deleted store (STORE_MISSING), the pragmas
 * (WAL, `synchronous=FULL`, `secure_delete`, busy timeout, and what the spec names) and the schema gate. The
 * caller owns the returned database (and closes it if its own checks fail).
 */
export async function openStoreDatabase(options: StoreDatabaseOptions, spec: StoreDatabaseSpec): Promise<OpenedStoreDatabase> {
  const fn = spec.fn;
  assertObject(options, `${fn}: "options"`);
  if (typeof options.directory !== 'string' || options.directory.length === 0)
    throw new TypeError(`${fn}: "directory" must be a non-empty string`);
  if (options.fileName !== undefined && !isSafeToken(options.fileName)) throw new TypeError(`${fn}: "fileName" must be a safe token`);
  assertFunction(options.clock, `${fn}: "clock"`, 'a function returning UTC milliseconds');
  if ((spec.anchorRequired || options.anchor !== undefined) && (options.anchor === null || typeof options.anchor !== 'object')) {
    throw new TypeError(`${fn}: "anchor" must be an AntiRollbackAnchor or { file }`);
  }
  spec.checkOptions?.();
  const busy = options.busyTimeoutMs ?? 10_000;
  if (!Number.isSafeInteger(busy) || busy < 0) throw new TypeError(`${fn}: "busyTimeoutMs" must be a non-negative safe integer`);

  const crashHooks = crashHooksOf(options, fn);
  const storeDir = resolve(options.directory);
  if (typeof options.masterKeyFile === 'string' && dirname(resolve(options.masterKeyFile)) === storeDir) {
    throw new StoreFileError('KEY_IN_STORE_DIRECTORY', options.masterKeyFile, 'master key file must not be in the store directory');
  }
  const anchorFile =
    options.anchor !== undefined && 'file' in options.anchor && typeof options.anchor.file === 'string' ? options.anchor.file : null;
  if (anchorFile !== null && dirname(resolve(anchorFile)) === storeDir) {
    throw new StoreFileError('ANCHOR_IN_STORE_DIRECTORY', anchorFile, 'anchor file must not be in the store directory');
  }
  const keys = loadStoreKeys(options, fn);
  let anchor: AntiRollbackAnchor | null = null;
  if (anchorFile !== null) anchor = new FileAntiRollbackAnchor({ path: anchorFile, macKey: keys.anchor });
  else if (options.anchor !== undefined) {
    anchor = options.anchor as AntiRollbackAnchor;
    if (typeof anchor.read !== 'function' || typeof anchor.write !== 'function')
      throw new TypeError(`${fn}: "anchor" must implement read() and write()`);
  }

  assertSecureDirectory(options.directory);
  const path = join(options.directory, options.fileName ?? spec.defaultFileName);
  const exists = assertSecureFile(path, false);
  assertSecureFile(`${path}-wal`, false);
  assertSecureFile(`${path}-shm`, false);
  if (!exists) {
    // A missing database next to an existing anchor mark is a deleted (rolled back) store, not a new one.
    const prior = anchor === null ? null : anchor.read();
    if (prior !== null) throw new StoreRollbackError('STORE_MISSING', prior.sequence, null);
    if (spec.ifMissing !== 'create') throw new StoreFileError('NOT_FOUND', path, spec.ifMissing.refuse);
    createSecureFile(path);
  }

  const db = new Database(path, { fileMustExist: true });
  try {
    db.pragma(`busy_timeout = ${busy}`);
    const journal = db.pragma('journal_mode = WAL', { simple: true });
    if (String(journal).toLowerCase() !== 'wal') throw new Error('could not enable WAL');
    db.pragma('synchronous = FULL');
    if (spec.foreignKeys === 'on') db.pragma('foreign_keys = ON');
    // Deleted content (purged artifacts) is overwritten with zeros inside the database file.
    db.pragma('secure_delete = ON');
    if (spec.integers === 'numbers') db.defaultSafeIntegers(false);
    spec.beforeSchema?.(db);
    await prepareSchema(db, path, spec.migrations, { migrate: spec.migrate });
    // SQLite creates -wal/-shm with the database file's mode; check them now that they exist.
    assertSecureFile(`${path}-wal`, false);
    assertSecureFile(`${path}-shm`, false);
    return Object.freeze({ db, path, keys, anchor, crashHooks });
  } catch (error) {
    db.close();
    throw error;
  }
}
