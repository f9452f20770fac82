import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import { readClock } from '@pfsense-mcp/foundation';
import { RecordIntegrityError } from './contract-store-error.js';
import { epochParts } from './key-epoch.js';
import { MacDomain, macMatches, rowMac } from '../integrity/row-mac.js';
import { STORE_SCHEMA_VERSION } from '../migration/store-schema-version.js';
import type { StoreKeys } from './store-keys.js';
import { legacyStoreRefusal } from '../migration/store-version-upgrade.js';

/** The authenticated `store_meta` row: `olderVersion` is set only when `migrate` allows an authenticated older store to be upgraded. */
export interface StoreMeta {
  readonly storeId: string;
  readonly createdAt: number;
  readonly olderVersion: number | null;
}

/** Reads and authenticates the metadata row, or (`create`, an empty store) writes it with a new store id. */
export function loadOrCreateMeta(
  db: Database.Database,
  keys: StoreKeys,
  clock: () => number,
  create: boolean,
  migrate: boolean,
  keyEpoch: number,
): StoreMeta {
  return db
    .transaction((): StoreMeta => {
      const row = db.prepare('SELECT store_id, schema_version, created_at, mac FROM store_meta WHERE id = 1').get() as
        { store_id: string; schema_version: number; created_at: number; mac: Buffer } | undefined;
      if (row === undefined) {
        if (!create) throw new RecordIntegrityError('META_MISSING', null, 'store metadata row is missing');
        const used = db.prepare('SELECT (SELECT count(*) FROM contracts) + (SELECT count(*) FROM audit_events) AS n').get() as {
          n: number;
        };
        if (used.n !== 0) throw new RecordIntegrityError('META_MISSING', null, 'store metadata row is missing');
        const storeId = `store-${randomBytes(16).toString('hex')}`;
        const createdAt = readClock(clock, 'contract store');
        const mac = rowMac(keys.recordMac, MacDomain.META, [storeId, String(STORE_SCHEMA_VERSION), String(createdAt)]);
        db.prepare('INSERT INTO store_meta (id, store_id, schema_version, created_at, mac) VALUES (1, ?, ?, ?, ?)').run(
          storeId,
          STORE_SCHEMA_VERSION,
          createdAt,
          Buffer.from(mac),
        );
        return { storeId, createdAt, olderVersion: null };
      }
      const expected = rowMac(keys.recordMac, MacDomain.META, [
        row.store_id,
        String(row.schema_version),
        String(row.created_at),
        ...epochParts(keyEpoch),
      ]);
      if (!macMatches(expected, row.mac)) {
        throw new RecordIntegrityError(
          'META_MAC',
          null,
          `store metadata failed authentication (the store says master-key epoch ${keyEpoch}: wrong key or tampered)`,
        );
      }
      if (row.schema_version === STORE_SCHEMA_VERSION) return { storeId: row.store_id, createdAt: row.created_at, olderVersion: null };
      // Newer versions were refused before the schema gate (refuseNewerStore); this one is older (and so never
      // rotated: a rotation needs this release's version, so its meta MAC carries no epoch part).
      if (!migrate) throw legacyStoreRefusal(row.schema_version);
      return { storeId: row.store_id, createdAt: row.created_at, olderVersion: row.schema_version };
    })
    .immediate();
}
