import { copyFileSync, constants, existsSync } from 'node:fs';
import { join } from 'node:path';
import { SchemaVersionError } from '@pfsense-mcp/contract-store';
import type { AdminContext } from './admin-context.js';
import { AdminError } from './admin-error.js';
import { adminResult } from './admin-result.js';
import type { AdminResult } from './admin-result.js';
import { prepareBackupDirectory } from './backup-command.js';
import { openAdminConsumptionStore, openAdminContractStore } from './open-admin-stores.js';
import { holdWriteDirectory } from './hold-write-directory.js';
import { openWriteDirectory } from './open-write-directory.js';
import type { AdminArgs } from './parse-admin-args.js';

/** A store written by a newer release: refused, never reinterpreted. */
function newerRefusal(error: unknown): unknown {
  if (error instanceof AdminError && error.code === 'STORE_UNKNOWN_SCHEMA') {
    return new AdminError('STORE_FROM_NEWER_RELEASE', 'store: written by a newer release of pfsense-mcp (or not by pfsense-mcp); install that release, never downgrade a store');
  }
  return error;
}

/**
 * `admin migrate [--out DIR2]`: upgrades both stores written by an older release (the store's schema migrations),
 * refused while a server runs on DIR (the maintenance lock); first copies both databases, as they are, to DIR2
 * (default DIR/../<name>-pre-migrate-<time>). The copy is taken with nothing running, so the files are consistent.
 */
export async function migrateCommand(args: AdminArgs, ctx: AdminContext): Promise<AdminResult> {
  const layout = openWriteDirectory(args, ctx);
  const hold = holdWriteDirectory(layout, 'migrate');
  try {
    const out = prepareBackupDirectory(args.values.get('--out') ?? `${layout.dir}-pre-migrate-${new Date(ctx.now()).toISOString().replace(/[:.]/g, '-')}`);
    const copied: string[] = [];
    for (const db of [layout.contractsDatabase, layout.consumptionDatabase]) {
      for (const suffix of ['', '-wal']) {
        if (suffix !== '' && !existsSync(db + suffix)) continue;
        const name = db.slice(layout.storeDir.length + 1) + suffix;
        copyFileSync(db + suffix, join(out, name), constants.COPYFILE_EXCL);
        copied.push(join(out, name));
      }
    }
    try {
      (await openAdminContractStore(layout, ctx, { migrate: true })).close();
      (await openAdminConsumptionStore(layout, ctx, { migrate: true })).close();
    } catch (error) {
      if (error instanceof SchemaVersionError) throw newerRefusal(new AdminError(`STORE_${error.code}`, error.message));
      throw newerRefusal(error);
    }
    return adminResult(
      [...hold.notes, `both stores are at this release's schema`, `  the files before migration were copied to ${out} (0700): ${copied.length} files`],
      { backup_dir: out, backup_files: copied },
    );
  } finally {
    hold.release();
  }
}
