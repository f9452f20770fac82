import { assertObject, readClock } from '@pfsense-mcp/foundation';
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import { bytesToHex, isSafeToken } from '@pfsense-mcp/canonical';
import type { AntiRollbackAnchor } from '../anchor/anti-rollback-anchor.js';
import { ConsumptionIntegrityError, KeyEpochMismatchError, StoreClosedError, StoreRollbackError } from '../store/contract-store-error.js';
import type { CrashHooks, CrashPoint } from '../store/crash-hooks.js';
import { FIRST_KEY_EPOCH, epochParts, readKeyEpoch } from '../store/key-epoch.js';
import { openStoreDatabase } from '../store/open-store-database.js';
import type { StoreDatabaseKind, StoreDatabaseOptions } from '../store/open-store-database.js';
import { MacDomain, macMatches, rowMac } from '../integrity/row-mac.js';
import { CONSUMPTION_STORE_MIGRATIONS } from '../migration/schema-migrations.js';
import { createSecureFile } from '../store/secure-store-path.js';

const SCHEMA_VERSION = 2;

/**
 * How the consumption store's file is opened (open-store-database.ts): one table, no reference, and the
 * file was always opened with the driver's foreign-key and integer defaults — kept so, on purpose.
 */
export const CONSUMPTION_STORE_DATABASE: StoreDatabaseKind = Object.freeze({
  defaultFileName: 'consumption.sqlite',
  anchorRequired: false,
  foreignKeys: 'driver-default',
  integers: 'driver-default',
  migrations: CONSUMPTION_STORE_MIGRATIONS,
});

/**
 * Options of `SqliteConsumptionStore.open` (StoreDatabaseOptions: `directory` — 0700, owned by the process
 * user; may be the contract store's directory —, `fileName` — default `consumption.sqlite` —, `clock`,
 * `busyTimeoutMs`, `migrate`, the master key). `anchor` is optional here: an anti-rollback anchor for this
 * file (high-water mark of its chain), an implementation or `{ file }` for a file anchor keyed by this store
 * (not in the store directory). Without one, a deleted row or a rewritten head is still detected inside the
 * file, but a restored older copy of the whole file is not (README).
 */
export type ConsumptionStoreOptions = StoreDatabaseOptions;

interface Head {
  readonly sequence: number;
  readonly mac: Uint8Array;
}

interface ConsumedRow {
  readonly authorization_id: string;
  readonly sequence: number;
  readonly consumed_at: number;
  readonly mac: Buffer;
}

/**
 * The authorization-consumption store: its own SQLite file and table. `tryConsume(id)` returns true
 * exactly once per id, ever — across processes (BEGIN IMMEDIATE + primary key) and restarts (WAL,
 * synchronous=FULL). Rows form an HMAC chain (each MAC covers its sequence and the previous MAC) whose
 * head (sequence, MAC) sits in the MAC'd metadata row and, optionally, in an external anchor. A row that
 * fails its MAC, a gap (a deleted row) or a head that does not match is an error, never "not consumed".
 */
export class SqliteConsumptionStore {
  readonly #db: Database.Database;
  readonly #key: Uint8Array;
  readonly #storeId: string;
  readonly #clock: () => number;
  readonly #genesis: Uint8Array;
  readonly #anchor: AntiRollbackAnchor | null;
  readonly #hooks: CrashHooks | undefined;
  readonly #get: Database.Statement;
  readonly #atSequence: Database.Statement;
  readonly #stats: Database.Statement;
  readonly #meta: Database.Statement;
  readonly #insert: Database.Statement;
  readonly #setHead: Database.Statement;
  #closed = false;
  /** Master-key epoch of this file (key-epoch.ts), bound into its metadata MAC and carried by its anchor marks. */
  readonly #keyEpoch: number;
  /** The anchor's accepted-restore time at open (null: never accepted, or no anchor). */
  #acceptedRestoreAt: number | null = null;

  private constructor(
    db: Database.Database,
    key: Uint8Array,
    storeId: string,
    clock: () => number,
    anchor: AntiRollbackAnchor | null,
    hooks: CrashHooks | undefined,
  ) {
    this.#db = db;
    this.#keyEpoch = readKeyEpoch(db);
    this.#key = key;
    this.#storeId = storeId;
    this.#clock = clock;
    this.#anchor = anchor;
    this.#hooks = hooks;
    this.#genesis = rowMac(key, MacDomain.CONSUMPTION_GENESIS, [storeId]);
    this.#get = db.prepare('SELECT authorization_id, sequence, consumed_at, mac FROM consumed_authorizations WHERE authorization_id = ?');
    this.#atSequence = db.prepare('SELECT authorization_id, sequence, consumed_at, mac FROM consumed_authorizations WHERE sequence = ?');
    this.#stats = db.prepare('SELECT count(*) AS n, max(sequence) AS top FROM consumed_authorizations');
    this.#meta = db.prepare('SELECT store_id, schema_version, head_sequence, head_mac, mac FROM consumption_meta WHERE id = 1');
    this.#insert = db.prepare('INSERT INTO consumed_authorizations (authorization_id, sequence, consumed_at, mac) VALUES (?, ?, ?, ?)');
    this.#setHead = db.prepare('UPDATE consumption_meta SET head_sequence = ?, head_mac = ?, mac = ? WHERE id = 1');
  }

  static async open(options: ConsumptionStoreOptions): Promise<SqliteConsumptionStore> {
    return SqliteConsumptionStore.#open(options, 'SqliteConsumptionStore.open', false);
  }

  /**
   * The operator's explicit acceptance of a restored consumption file (docs/DESIGN.md §3): the file's
   * own chain must verify in full; then the anchor is re-pointed at its head — whatever the anchor said
   * (behind, diverged, missing) — with `acceptedRestoreAt` = now (never earlier than a previous
   * acceptance). From then on every authorization issued at or before that time is refused, so an
   * authorization consumed after the backup cannot be replayed from the restored file. Requires an anchor;
   * an anchor that fails authentication is still refused. Returns the acceptance time.
   */
  static async acceptRestore(options: ConsumptionStoreOptions): Promise<number> {
    const fn = 'SqliteConsumptionStore.acceptRestore';
    assertObject(options, `${fn}: "options"`);
    if (options.anchor === undefined) throw new TypeError(`${fn}: "anchor" is required`);
    const store = await SqliteConsumptionStore.#open(options, fn, true);
    try {
      return store.#acceptedRestoreAt as number;
    } finally {
      store.close();
    }
  }

  static async #open(options: ConsumptionStoreOptions, fn: string, acceptRestore: boolean): Promise<SqliteConsumptionStore> {
    const { db, keys, anchor, crashHooks } = await openStoreDatabase(options, {
      ...CONSUMPTION_STORE_DATABASE,
      fn,
      ifMissing: acceptRestore ? { refuse: 'no consumption store to accept' } : 'create',
      migrate: options?.migrate === true,
    });
    try {
      const storeId = db
        .transaction((): string => {
          const row = db.prepare('SELECT store_id FROM consumption_meta WHERE id = 1').get() as { store_id: string } | undefined;
          if (row === undefined) {
            const used = db.prepare('SELECT count(*) AS n FROM consumed_authorizations').get() as { n: number };
            if (used.n !== 0) throw new ConsumptionIntegrityError('META_MISSING', 'consumption store metadata is missing');
            const id = `consumption-${randomBytes(16).toString('hex')}`;
            const genesis = rowMac(keys.consumption, MacDomain.CONSUMPTION_GENESIS, [id]);
            db.prepare(
              'INSERT INTO consumption_meta (id, store_id, schema_version, head_sequence, head_mac, mac) VALUES (1, ?, ?, 0, ?, ?)',
            ).run(
              id,
              SCHEMA_VERSION,
              Buffer.from(genesis),
              Buffer.from(consumptionMetaMac(keys.consumption, id, 0, genesis, FIRST_KEY_EPOCH)),
            );
            return id;
          }
          return row.store_id;
        })
        .immediate();
      const store = new SqliteConsumptionStore(db, keys.consumption, storeId, options.clock, anchor, crashHooks);
      store.#verifyAll();
      if (acceptRestore) store.#acceptRestore();
      else store.#syncAnchor(true);
      return store;
    } catch (error) {
      db.close();
      throw error;
    }
  }

  #crash(point: CrashPoint): void {
    this.#hooks?.at(point, 'tryConsume');
  }

  #rowMac(sequence: number, authorizationId: string, consumedAt: number, previous: Uint8Array): Uint8Array {
    return rowMac(this.#key, MacDomain.CONSUMPTION_ROW, [this.#storeId, String(sequence), authorizationId, String(consumedAt), previous]);
  }

  /** The authenticated head from the metadata row; the table must hold exactly rows 1..head (no gap, none after). */
  #head(): Head {
    const meta = this.#meta.get() as
      { store_id: string; schema_version: number; head_sequence: number; head_mac: Buffer; mac: Buffer } | undefined;
    if (meta === undefined) throw new ConsumptionIntegrityError('META_MISSING', 'consumption store metadata is missing');
    const expected = consumptionMetaMac(this.#key, meta.store_id, meta.head_sequence, meta.head_mac, this.#keyEpoch);
    if (!macMatches(expected, meta.mac) || meta.schema_version !== SCHEMA_VERSION || meta.store_id !== this.#storeId) {
      throw new ConsumptionIntegrityError(
        'META_MAC',
        `consumption store metadata failed authentication (the store says master-key epoch ${this.#keyEpoch}: wrong key or tampered)`,
      );
    }
    const stats = this.#stats.get() as { n: number; top: number | null };
    if (stats.n !== meta.head_sequence || (stats.top ?? 0) !== meta.head_sequence) {
      throw new ConsumptionIntegrityError(
        'CHAIN_BROKEN',
        'consumption rows do not match the authenticated head (a row was deleted or added)',
      );
    }
    if (meta.head_sequence === 0) {
      if (!macMatches(this.#genesis, meta.head_mac))
        throw new ConsumptionIntegrityError('META_MAC', 'consumption store metadata failed authentication');
    } else {
      const top = this.#atSequence.get(meta.head_sequence) as ConsumedRow;
      if (!macMatches(new Uint8Array(meta.head_mac), top.mac))
        throw new ConsumptionIntegrityError('CHAIN_BROKEN', 'consumption head does not match the last row');
    }
    return { sequence: meta.head_sequence, mac: new Uint8Array(meta.head_mac) };
  }

  /** Authenticates one row against its predecessor (one chain link). */
  #checkRow(row: ConsumedRow): void {
    if (!Number.isSafeInteger(row.sequence) || row.sequence < 1)
      throw new ConsumptionIntegrityError('ROW_MALFORMED', 'consumption row is malformed');
    let previous: Uint8Array = this.#genesis;
    if (row.sequence > 1) {
      const prior = this.#atSequence.get(row.sequence - 1) as ConsumedRow | undefined;
      if (prior === undefined) throw new ConsumptionIntegrityError('CHAIN_BROKEN', 'consumption chain has a gap');
      previous = prior.mac;
    }
    if (!macMatches(this.#rowMac(row.sequence, row.authorization_id, row.consumed_at, previous), row.mac)) {
      throw new ConsumptionIntegrityError('ROW_MAC', 'consumption row failed authentication');
    }
  }

  /** At open: the whole chain from genesis to the authenticated head. */
  #verifyAll(): void {
    this.#db.transaction(() => {
      const head = this.#head();
      let previous: Uint8Array = this.#genesis;
      let expected = 1;
      for (const row of this.#db
        .prepare('SELECT authorization_id, sequence, consumed_at, mac FROM consumed_authorizations ORDER BY sequence')
        .iterate() as Iterable<ConsumedRow>) {
        if (row.sequence !== expected) throw new ConsumptionIntegrityError('CHAIN_BROKEN', 'consumption chain has a gap');
        if (!macMatches(this.#rowMac(row.sequence, row.authorization_id, row.consumed_at, previous), row.mac)) {
          throw new ConsumptionIntegrityError('ROW_MAC', 'consumption row failed authentication');
        }
        previous = row.mac;
        expected += 1;
      }
      if (expected - 1 !== head.sequence) throw new ConsumptionIntegrityError('CHAIN_BROKEN', 'consumption chain does not reach its head');
    })();
  }

  /**
   * Compares the file with its anchor (if any) under the write lock and advances the anchor to the head:
   * behind → BEHIND, a different MAC at the anchor's sequence → DIVERGED, history without an anchor at
   * open → ANCHOR_MISSING. The file may be ahead (a crash between commit and anchor write).
   */
  #syncAnchor(atOpen: boolean): void {
    const anchor = this.#anchor;
    if (anchor === null) return;
    this.#db
      .transaction(() => {
        const head = this.#head();
        const mark = anchor.read();
        if (mark === null) {
          if (atOpen && head.sequence > 0) throw new StoreRollbackError('ANCHOR_MISSING', null, head.sequence);
        } else {
          if (mark.storeId !== this.#storeId) throw new StoreRollbackError('STORE_MISMATCH', mark.sequence, head.sequence);
          if ((mark.keyEpoch ?? FIRST_KEY_EPOCH) !== this.#keyEpoch)
            throw new KeyEpochMismatchError('the anchor', this.#keyEpoch, mark.keyEpoch ?? FIRST_KEY_EPOCH);
          if (mark.sequence > head.sequence) throw new StoreRollbackError('BEHIND', mark.sequence, head.sequence);
          const at = mark.sequence === 0 ? this.#genesis : (this.#atSequence.get(mark.sequence) as ConsumedRow).mac;
          if (bytesToHex(at) !== mark.headMac) throw new StoreRollbackError('DIVERGED', mark.sequence, head.sequence);
          this.#acceptedRestoreAt = mark.acceptedRestoreAt ?? null;
          if (mark.sequence === head.sequence) return;
        }
        anchor.write({
          storeId: this.#storeId,
          sequence: head.sequence,
          headMac: bytesToHex(head.mac),
          acceptedRestoreAt: this.#acceptedRestoreAt,
          keyEpoch: this.#keyEpoch,
        });
      })
      .immediate();
  }

  /** Re-points the anchor at this (verified) file's head with a new acceptance time (see acceptRestore). */
  #acceptRestore(): void {
    const anchor = this.#anchor as AntiRollbackAnchor;
    const now = readClock(this.#clock, 'acceptRestore');
    this.#db
      .transaction(() => {
        const head = this.#head();
        const prior = anchor.read();
        const previous = prior?.acceptedRestoreAt ?? null;
        const accepted = previous === null ? now : Math.max(now, previous);
        anchor.write({
          storeId: this.#storeId,
          sequence: head.sequence,
          headMac: bytesToHex(head.mac),
          acceptedRestoreAt: accepted,
          keyEpoch: this.#keyEpoch,
        });
        this.#acceptedRestoreAt = accepted;
      })
      .immediate();
  }

  /**
   * After an accepted restore, an authorization issued at or before the acceptance counts as consumed:
   * the restored file may have lost its consumption. Without `issuedAt` it is refused too (fail closed).
   */
  #refusedByRestore(issuedAt: number | undefined, fn: string): boolean {
    if (issuedAt !== undefined && (!Number.isSafeInteger(issuedAt) || issuedAt < 0)) {
      throw new TypeError(`${fn}: "issuedAt" must be non-negative integer UTC milliseconds`);
    }
    const accepted = this.#acceptedRestoreAt;
    if (accepted === null) return false;
    return issuedAt === undefined || issuedAt <= accepted;
  }

  /** The accepted-restore time recorded in the anchor (null if none): for status displays. */
  acceptedRestoreAt(): number | null {
    if (this.#closed) throw new StoreClosedError();
    return this.#acceptedRestoreAt;
  }

  #assert(authorizationId: string, fn: string): void {
    if (this.#closed) throw new StoreClosedError();
    if (!isSafeToken(authorizationId)) throw new TypeError(`${fn}: "authorizationId" must be a safe token`);
  }

  /**
   * True exactly once per authorization id, ever. A corrupted row, a chain gap or a rolled-back file
   * (with an anchor) throws. If the anchor write fails after the commit, the call throws although the id
   * is consumed: the caller must treat that as "not acquired" (the id is burned, never reusable).
   * `issuedAt` (the authorization's issued_at): after an accepted restore, one issued at or before the
   * acceptance is never acquired (false), nor one without it.
   */
  tryConsume(authorizationId: string, issuedAt?: number): boolean {
    this.#assert(authorizationId, 'tryConsume');
    if (this.#refusedByRestore(issuedAt, 'tryConsume')) return false;
    const now = readClock(this.#clock, 'tryConsume');
    this.#crash('before-begin');
    const consumed = this.#db
      .transaction((): boolean => {
        const head = this.#head();
        const row = this.#get.get(authorizationId) as ConsumedRow | undefined;
        if (row !== undefined) {
          this.#checkRow(row);
          return false;
        }
        const sequence = head.sequence + 1;
        const mac = this.#rowMac(sequence, authorizationId, now, head.mac);
        this.#insert.run(authorizationId, sequence, now, Buffer.from(mac));
        this.#setHead.run(
          sequence,
          Buffer.from(mac),
          Buffer.from(consumptionMetaMac(this.#key, this.#storeId, sequence, mac, this.#keyEpoch)),
        );
        this.#crash('after-write-before-commit');
        return true;
      })
      .immediate();
    if (consumed) {
      this.#crash('after-commit-before-anchor');
      this.#syncAnchor(false);
      this.#crash('after-anchor');
    }
    return consumed;
  }

  /**
   * Whether the id was consumed (authenticated against the chain head; a gap or corrupted row throws).
   * After an accepted restore, an authorization issued at or before it (or without `issuedAt`) counts as consumed.
   */
  isConsumed(authorizationId: string, issuedAt?: number): boolean {
    this.#assert(authorizationId, 'isConsumed');
    if (this.#refusedByRestore(issuedAt, 'isConsumed')) return true;
    return this.#db.transaction((): boolean => {
      this.#head();
      const row = this.#get.get(authorizationId) as ConsumedRow | undefined;
      if (row === undefined) return false;
      this.#checkRow(row);
      return true;
    })();
  }

  /** A consistent online copy (SQLite backup API) into a new 0600 file (exclusive creation). */
  async backupTo(path: string): Promise<void> {
    if (this.#closed) throw new StoreClosedError();
    if (typeof path !== 'string' || path.length === 0 || path.includes('\0'))
      throw new TypeError('backupTo: "path" must be a non-empty path');
    createSecureFile(path);
    await this.#db.backup(path);
  }

  /** The master-key epoch of this file (1 until the first `rotate master-key`). */
  keyEpoch(): number {
    if (this.#closed) throw new StoreClosedError();
    return this.#keyEpoch;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#db.close();
  }
}

/** The metadata MAC (also used by the re-key of a staged copy, rekey-consumption-store-file.ts). */
export function consumptionMetaMac(
  key: Uint8Array,
  storeId: string,
  headSequence: number,
  headMac: Uint8Array,
  keyEpoch: number,
): Uint8Array {
  return rowMac(key, MacDomain.CONSUMPTION_META, [storeId, String(SCHEMA_VERSION), String(headSequence), headMac, ...epochParts(keyEpoch)]);
}
export const CONSUMPTION_SCHEMA_VERSION = SCHEMA_VERSION;
