import { copyFileSync, constants, existsSync } from 'node:fs';
import { join } from 'node:path';
import { STORE_SCHEMA_VERSION, SchemaVersionError, SqliteConsumptionStore, SqliteRecoveryContractStore } from '@pfsense-mcp/contract-store';
import type { AdminContext } from './admin-context.js';
import { AdminError } from './admin-error.js';
import { adminResult } from './admin-result.js';
import type { AdminResult } from './admin-result.js';
import { prepareBackupDirectory } from './backup-command.js';
import { adminConsumptionStoreOptions, adminContractStoreOptions, storeRefusal } from './open-admin-stores.js';
import { withHeldWriteDirectory } from './hold-write-directory.js';
import type { AdminArgs } from './parse-admin-args.js';
import type { WriteDirectoryLayout } from '../runtime/write-directory/write-directory-layout.js';

/** A store written by a newer release: refused, never reinterpreted; the message names both versions when known. */
function newerRefusal(error: SchemaVersionError): AdminError {
  const versions = error.storeVersion === null ? '' : ` (store schema version ${error.storeVersion}, this release ${STORE_SCHEMA_VERSION})`;
  return new AdminError(
    'STORE_FROM_NEWER_RELEASE',
    `store: written by a newer release of pfsense-mcp (or not by pfsense-mcp)${versions}; install that release, never downgrade a store`,
  );
}

/** The store's own refusal: the code and its value-free message. */
function storeVersionRefusal(error: unknown): unknown {
  if (!(error instanceof SchemaVersionError)) return error;
  if (error.code === 'NEWER_SCHEMA' || error.code === 'UNKNOWN_SCHEMA') return newerRefusal(error);
  return new AdminError(`STORE_${error.code}`, error.message);
}

/**
 * The contract store's version before the migration: opening without `migrate` either succeeds (current) or is
 * refused as LEGACY_SCHEMA with the version it found. Any other refusal is the answer.
 */
async function contractStoreVersion(layout: WriteDirectoryLayout, ctx: AdminContext): Promise<number> {
  try {
    (await SqliteRecoveryContractStore.open(adminContractStoreOptions(layout, ctx))).close();
    return STORE_SCHEMA_VERSION;
  } catch (error) {
    if (error instanceof SchemaVersionError && error.code === 'LEGACY_SCHEMA' && error.storeVersion !== null) return error.storeVersion;
    throw error;
  }
}

/**
 * `admin migrate [--out DIR2]`: upgrades both stores written by an older release (the store's schema migrations
 * and version steps), refused while a server runs on DIR (the maintenance lock); first copies both databases, as
 * they are, to DIR2 (default DIR/../<name>-pre-migrate-<time>). The copy is taken with nothing running, so the
 * files are consistent. A store that fails its checks is left as it was (the upgrade commits only a verified store).
 */
export async function migrateCommand(args: AdminArgs, ctx: AdminContext): Promise<AdminResult> {
  return withHeldWriteDirectory(args, ctx, 'migrate', async (layout, hold) => {
    const out = prepareBackupDirectory(
      layout,
      args.values.get('--out') ?? `${layout.dir}-pre-migrate-${new Date(ctx.now()).toISOString().replace(/[:.]/g, '-')}`,
    );
    const copied: string[] = [];
    for (const db of [layout.contractsDatabase, layout.consumptionDatabase]) {
      for (const suffix of ['', '-wal']) {
        if (suffix !== '' && !existsSync(db + suffix)) continue;
        const name = db.slice(layout.storeDir.length + 1) + suffix;
        copyFileSync(db + suffix, join(out, name), constants.COPYFILE_EXCL);
        copied.push(join(out, name));
      }
    }
    let from: number;
    try {
      from = await contractStoreVersion(layout, ctx);
      if (from !== STORE_SCHEMA_VERSION)
        (await SqliteRecoveryContractStore.open(adminContractStoreOptions(layout, ctx, { migrate: true }))).close();
    } catch (error) {
      throw storeRefusal(storeVersionRefusal(error));
    }
    try {
      (await SqliteConsumptionStore.open(adminConsumptionStoreOptions(layout, ctx, { migrate: true }))).close();
    } catch (error) {
      throw storeRefusal(storeVersionRefusal(error));
    }
    const step = from === STORE_SCHEMA_VERSION ? `already at schema version ${from}` : `schema version ${from} → ${STORE_SCHEMA_VERSION}`;
    return adminResult(
      [
        ...hold.notes,
        `both stores are at this release's schema (contract store: ${step})`,
        `  the files before migration were copied to ${out} (0700): ${copied.length} files`,
      ],
      {
        from_version: from,
        schema_version: STORE_SCHEMA_VERSION,
        migrated: from !== STORE_SCHEMA_VERSION,
        backup_dir: out,
        backup_files: copied,
      },
    );
  });
}
