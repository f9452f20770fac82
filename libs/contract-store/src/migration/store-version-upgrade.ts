import type Database from 'better-sqlite3';
import { EMPTY_RATE_WINDOW_STATE, parseRateWindowState } from '@pfsense-mcp/policy';
import type { RateWindowState } from '@pfsense-mcp/policy';
import { RecordIntegrityError, SchemaVersionError } from '../store/contract-store-error.js';
import { RATE_WINDOW_SCOPE, rateRowBytes, rateRowMac } from '../rate/rate-gate.js';
import { MacDomain, macMatches, rowMac } from '../integrity/row-mac.js';
import { OLDEST_MIGRATABLE_STORE_VERSION, STORE_SCHEMA_VERSION } from './store-schema-version.js';

const versions = (store: number) => ({ store, release: STORE_SCHEMA_VERSION });

/**
 * A store written by a newer release is refused before anything in it is interpreted (its MACs or layout may
 * differ). The version column is read unauthenticated on purpose: a forged higher number only makes the open
 * refuse. No meta table or row yet (a new or half-created store) is not a refusal here.
 */
export function refuseNewerStore(db: Database.Database): void {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'store_meta'").get();
  if (table === undefined) return;
  const row = db.prepare('SELECT schema_version FROM store_meta WHERE id = 1').get() as { schema_version: unknown } | undefined;
  if (row === undefined || typeof row.schema_version !== 'number') return;
  if (row.schema_version > STORE_SCHEMA_VERSION) {
    throw new SchemaVersionError(
      'NEWER_SCHEMA',
      `store schema version ${row.schema_version} was written by a newer release; this release reads version ${STORE_SCHEMA_VERSION} (install the newer release; a store is never downgraded)`,
      versions(row.schema_version),
    );
  }
}

/** An authenticated older store without an explicit migration: refused, naming both versions and the way out. */
export function legacyStoreRefusal(storeVersion: number): SchemaVersionError {
  return new SchemaVersionError(
    'LEGACY_SCHEMA',
    `store schema version ${storeVersion} was written by an older release; this release needs version ${STORE_SCHEMA_VERSION} (stop the server and run \`pfsense-mcp admin migrate --dir DIR\`)`,
    versions(storeVersion),
  );
}

/**
 * Version 1 → 2: the rate row is authenticated under its old binding (window state only, rate-window/v1) and
 * rewritten bound to the current audit head (rate-window/v2). A row that fails the old MAC is refused as
 * RATE_STATE_MAC — a tampered old store stays refused. A row already in the new binding (written by a build
 * between the two releases) is left as it is: the open's row checks then compare it with the audit head.
 * Version 1 could not detect a deleted rate row, so none is recreated from history: an absent row becomes the
 * empty window state (only when the store has audit rows, as version 2 requires).
 */
function rebindRateRow(db: Database.Database, recordMacKey: Uint8Array, storeId: string): void {
  const row = db.prepare('SELECT state, mac FROM rate_windows WHERE scope = ?').get(RATE_WINDOW_SCOPE) as
    { state: Buffer; mac: Buffer } | undefined;
  const head = (db.prepare('SELECT coalesce(max(sequence), 0) AS n FROM audit_events').get() as { n: number }).n;
  let windows: RateWindowState;
  if (row === undefined) {
    if (head === 0) return;
    windows = EMPTY_RATE_WINDOW_STATE;
  } else if (macMatches(rowMac(recordMacKey, MacDomain.RATE_WINDOW_V1, [storeId, RATE_WINDOW_SCOPE, row.state]), row.mac)) {
    try {
      windows = parseRateWindowState(JSON.parse(row.state.toString('utf8')));
    } catch {
      throw new RecordIntegrityError('RATE_STATE_MALFORMED', null, 'rate window state is malformed');
    }
  } else if (macMatches(rateRowMac(recordMacKey, storeId, row.state), row.mac)) {
    return;
  } else {
    throw new RecordIntegrityError('RATE_STATE_MAC', null, 'rate window state failed authentication');
  }
  const bytes = rateRowBytes(head, windows);
  db.prepare(
    'INSERT INTO rate_windows (scope, state, mac) VALUES (?, ?, ?) ON CONFLICT(scope) DO UPDATE SET state = excluded.state, mac = excluded.mac',
  ).run(RATE_WINDOW_SCOPE, Buffer.from(bytes), Buffer.from(rateRowMac(recordMacKey, storeId, bytes)));
}

/**
 * Upgrades an authenticated store from `from` to this release's version, step by step, inside the caller's
 * transaction (the caller verifies the whole store before it commits), and re-MACs the meta row last.
 */
export function upgradeStoreVersion(
  db: Database.Database,
  recordMacKey: Uint8Array,
  storeId: string,
  createdAt: number,
  from: number,
): void {
  if (!Number.isSafeInteger(from) || from < OLDEST_MIGRATABLE_STORE_VERSION || from >= STORE_SCHEMA_VERSION) {
    throw new SchemaVersionError(
      'UNKNOWN_SCHEMA',
      `store schema version ${from} cannot be migrated by this release (version ${STORE_SCHEMA_VERSION})`,
      versions(from),
    );
  }
  if (from < 2) rebindRateRow(db, recordMacKey, storeId);
  const mac = rowMac(recordMacKey, MacDomain.META, [storeId, String(STORE_SCHEMA_VERSION), String(createdAt)]);
  db.prepare('UPDATE store_meta SET schema_version = ?, mac = ? WHERE id = 1').run(STORE_SCHEMA_VERSION, Buffer.from(mac));
}
