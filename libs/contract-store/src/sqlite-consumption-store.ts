import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { isSafeToken } from '@pfsense-mcp/canonical';
import { ConsumptionIntegrityError, StoreClosedError } from './contract-store-error.js';
import { MacDomain, macMatches, rowMac } from './row-mac.js';
import { CONSUMPTION_STORE_MIGRATIONS, prepareSchema } from './schema-migrations.js';
import { assertSecureDirectory, assertSecureFile, createSecureFile } from './secure-store-path.js';
import { loadStoreKeys } from './store-keys.js';
import type { MasterKeySource } from './store-keys.js';

const SCHEMA_VERSION = 1;

export interface ConsumptionStoreOptions extends MasterKeySource {
  /** Directory (0700, owned by the process user); may be the contract store's directory. */
  readonly directory: string;
  /** File name (default `consumption.sqlite`). */
  readonly fileName?: string;
  readonly clock: () => number;
  readonly busyTimeoutMs?: number;
  readonly migrate?: boolean;
}

/**
 * The authorization-consumption store: its own SQLite file and table. `tryConsume(id)` returns true
 * exactly once per id, ever — across processes (BEGIN IMMEDIATE + primary key) and restarts (WAL,
 * synchronous=FULL). Every row carries a MAC; a row that fails it is an error, never "not consumed".
 */
export class SqliteConsumptionStore {
  readonly #db: Database.Database;
  readonly #key: Uint8Array;
  readonly #storeId: string;
  readonly #clock: () => number;
  readonly #get: Database.Statement;
  readonly #insert: Database.Statement;
  #closed = false;

  private constructor(db: Database.Database, key: Uint8Array, storeId: string, clock: () => number) {
    this.#db = db;
    this.#key = key;
    this.#storeId = storeId;
    this.#clock = clock;
    this.#get = db.prepare('SELECT authorization_id, consumed_at, mac FROM consumed_authorizations WHERE authorization_id = ?');
    this.#insert = db.prepare('INSERT INTO consumed_authorizations (authorization_id, consumed_at, mac) VALUES (?, ?, ?)');
  }

  static async open(options: ConsumptionStoreOptions): Promise<SqliteConsumptionStore> {
    const fn = 'SqliteConsumptionStore.open';
    if (options === null || typeof options !== 'object') throw new TypeError(`${fn}: "options" must be an object`);
    if (typeof options.directory !== 'string' || options.directory.length === 0) throw new TypeError(`${fn}: "directory" must be a non-empty string`);
    if (options.fileName !== undefined && !isSafeToken(options.fileName)) throw new TypeError(`${fn}: "fileName" must be a safe token`);
    if (typeof options.clock !== 'function') throw new TypeError(`${fn}: "clock" must be a function`);
    const busy = options.busyTimeoutMs ?? 10_000;
    if (!Number.isSafeInteger(busy) || busy < 0) throw new TypeError(`${fn}: "busyTimeoutMs" must be a non-negative safe integer`);
    const keys = loadStoreKeys(options, fn);
    assertSecureDirectory(options.directory);
    const path = join(options.directory, options.fileName ?? 'consumption.sqlite');
    if (!assertSecureFile(path, false)) createSecureFile(path);
    assertSecureFile(`${path}-wal`, false);
    assertSecureFile(`${path}-shm`, false);
    const db = new Database(path, { fileMustExist: true });
    try {
      db.pragma(`busy_timeout = ${busy}`);
      const mode = db.pragma('journal_mode = WAL', { simple: true });
      if (String(mode).toLowerCase() !== 'wal') throw new Error('could not enable WAL');
      db.pragma('synchronous = FULL');
      await prepareSchema(db, path, CONSUMPTION_STORE_MIGRATIONS, { migrate: options.migrate === true });
      assertSecureFile(`${path}-wal`, false);
      assertSecureFile(`${path}-shm`, false);
      const storeId = db
        .transaction((): string => {
          const row = db.prepare('SELECT store_id, schema_version, mac FROM consumption_meta WHERE id = 1').get() as
            | { store_id: string; schema_version: number; mac: Buffer }
            | undefined;
          if (row === undefined) {
            const used = db.prepare('SELECT count(*) AS n FROM consumed_authorizations').get() as { n: number };
            if (used.n !== 0) throw new ConsumptionIntegrityError('META_MISSING', 'consumption store metadata is missing');
            const id = `consumption-${randomBytes(16).toString('hex')}`;
            const mac = rowMac(keys.consumption, MacDomain.CONSUMPTION_META, [id, String(SCHEMA_VERSION)]);
            db.prepare('INSERT INTO consumption_meta (id, store_id, schema_version, mac) VALUES (1, ?, ?, ?)').run(id, SCHEMA_VERSION, Buffer.from(mac));
            return id;
          }
          const expected = rowMac(keys.consumption, MacDomain.CONSUMPTION_META, [row.store_id, String(row.schema_version)]);
          if (!macMatches(expected, row.mac) || row.schema_version !== SCHEMA_VERSION) {
            throw new ConsumptionIntegrityError('META_MAC', 'consumption store metadata failed authentication');
          }
          return row.store_id;
        })
        .immediate();
      return new SqliteConsumptionStore(db, keys.consumption, storeId, options.clock);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  #mac(authorizationId: string, consumedAt: number): Uint8Array {
    return rowMac(this.#key, MacDomain.CONSUMPTION_ROW, [this.#storeId, authorizationId, String(consumedAt)]);
  }

  #checkRow(row: { authorization_id: string; consumed_at: number; mac: Buffer }): void {
    if (!macMatches(this.#mac(row.authorization_id, row.consumed_at), row.mac)) {
      throw new ConsumptionIntegrityError('ROW_MAC', 'consumption row failed authentication');
    }
  }

  #assert(authorizationId: string, fn: string): void {
    if (this.#closed) throw new StoreClosedError();
    if (!isSafeToken(authorizationId)) throw new TypeError(`${fn}: "authorizationId" must be a safe token`);
  }

  /** True exactly once per authorization id, ever. A corrupted existing row throws. */
  tryConsume(authorizationId: string): boolean {
    this.#assert(authorizationId, 'tryConsume');
    const now = this.#clock();
    if (!Number.isSafeInteger(now) || now < 0) throw new TypeError('tryConsume: "clock" must return non-negative integer UTC milliseconds');
    return this.#db
      .transaction((): boolean => {
        const row = this.#get.get(authorizationId) as { authorization_id: string; consumed_at: number; mac: Buffer } | undefined;
        if (row !== undefined) {
          this.#checkRow(row);
          return false;
        }
        this.#insert.run(authorizationId, now, Buffer.from(this.#mac(authorizationId, now)));
        return true;
      })
      .immediate();
  }

  /** Whether the id was consumed (authenticated; a corrupted row throws). */
  isConsumed(authorizationId: string): boolean {
    this.#assert(authorizationId, 'isConsumed');
    const row = this.#get.get(authorizationId) as { authorization_id: string; consumed_at: number; mac: Buffer } | undefined;
    if (row === undefined) return false;
    this.#checkRow(row);
    return true;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#db.close();
  }
}
