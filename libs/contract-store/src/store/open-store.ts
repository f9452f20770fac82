import type { AntiRollbackAnchor } from '../anchor/anti-rollback-anchor.js';
import { auditGenesisMac } from '../audit/audit-chain.js';
import { DEFAULT_RETENTION_MS } from './contract-store-options.js';
import type { ContractStoreOptions } from './contract-store-options.js';
import { SchemaVersionError } from './contract-store-error.js';
import { readKeyEpoch } from './key-epoch.js';
import { openStoreDatabase } from './open-store-database.js';
import type { StoreDatabaseKind } from './open-store-database.js';
import { RateGate } from '../rate/rate-gate.js';
import { VerifiedRecords } from '../model/verified-records.js';
import { expireAfterRestore, refuseRestoreWithWorkInFlight } from '../anchor/restored-store.js';
import { CONTRACT_STORE_MIGRATIONS, executedMigrations } from '../migration/schema-migrations.js';
import { acceptAnchor, openAnchorCheck } from '../anchor/store-anchor.js';
import { loadOrCreateMeta } from './store-meta.js';
import { prepareStoreStatements } from './store-statements.js';
import type { StoreState } from './store-state.js';
import { refuseNewerStore } from '../migration/store-version-upgrade.js';
import { upgradeVersion, verifyEverything } from '../integrity/verify-store-contents.js';

/**
 * `normal`: the store of a running server (created on first use, anchor compared then advanced, every
 * row verified against the chain). `reanchor`: README "Backup and restore". `accept-restore`: README
 * "Accepting a restored store". `verify`: for `verifyIntegrity` only — nothing is created, migrated,
 * advanced or verified at open.
 */
export type OpenMode = 'normal' | 'reanchor' | 'accept-restore' | 'verify';

/** How the contract store's file is opened (open-store-database.ts): its tables reference each other. */
export const CONTRACT_STORE_DATABASE: StoreDatabaseKind = Object.freeze({
  defaultFileName: 'contracts.sqlite',
  anchorRequired: true,
  foreignKeys: 'on',
  integers: 'numbers',
  migrations: CONTRACT_STORE_MIGRATIONS,
});

/** Opens the contract store's database in `mode` and returns its state; fails closed on unsafe files, unknown schema, bad MACs or a rollback. */
export async function openStore(options: ContractStoreOptions, mode: OpenMode = 'normal'): Promise<StoreState> {
  const fn = 'SqliteRecoveryContractStore.open';
  const opened = await openStoreDatabase(options, {
    ...CONTRACT_STORE_DATABASE,
    fn,
    // A verification never initializes an empty file.
    ifMissing: mode === 'verify' ? { refuse: 'database file does not exist' } : 'create',
    migrate: options?.migrate === true && mode !== 'verify',
    checkOptions: () => {
      if (options.retentionMs !== undefined && (!Number.isSafeInteger(options.retentionMs) || options.retentionMs < 0)) {
        throw new TypeError(`${fn}: "retentionMs" must be a non-negative safe integer`);
      }
    },
    beforeSchema: (db) => {
      if (mode === 'verify' && executedMigrations(db) === null)
        throw new SchemaVersionError('UNKNOWN_SCHEMA', 'database has no recognizable schema version');
      refuseNewerStore(db);
    },
  });
  const { db, keys } = opened;
  const anchor = opened.anchor as AntiRollbackAnchor;
  try {
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
      crashHooks: opened.crashHooks,
      rate: new RateGate(db, keys.recordMac, meta.storeId, options.rateLimits ?? {}),
      records: new VerifiedRecords(),
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
