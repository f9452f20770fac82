import { lstatSync, mkdirSync, readdirSync, chmodSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { AdminContext } from './admin-context.js';
import { AdminError } from './admin-error.js';
import { adminResult } from './admin-result.js';
import type { AdminResult } from './admin-result.js';
import { openAdminConsumptionStore, openAdminContractStore, storeRefusal } from './open-admin-stores.js';
import { openWriteDirectory } from './open-write-directory.js';
import type { AdminArgs } from './parse-admin-args.js';
import { RUNBOOK } from './runbook-anchors.js';

/** --out DIR2: a new (or empty) directory of ours, made 0700. */
export function prepareBackupDirectory(value: string): string {
  const dir = isAbsolute(value) ? resolve(value) : resolve(process.cwd(), value);
  let st;
  try {
    st = lstatSync(dir);
  } catch {
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch {
      throw new AdminError('OUT_UNUSABLE', '--out: cannot be created (does its parent exist?)');
    }
    chmodSync(dir, 0o700);
    return dir;
  }
  if (st.isSymbolicLink() || !st.isDirectory()) throw new AdminError('OUT_UNUSABLE', '--out: must be a directory, not a symbolic link');
  if (typeof process.getuid === 'function' && st.uid !== process.getuid())
    throw new AdminError('OUT_UNUSABLE', '--out: must be owned by the current user');
  if (readdirSync(dir).length > 0) throw new AdminError('OUT_NOT_EMPTY', '--out: must be new or empty (a backup never overwrites)');
  chmodSync(dir, 0o700);
  return dir;
}

/**
 * `admin backup --out DIR2`: consistent online copies (SQLite backup API) of both databases, 0600 in a 0700 DIR2.
 * Never the anchors: a backup restored together with its anchor is exactly the rollback the anchor exists to catch.
 */
export async function backupCommand(args: AdminArgs, ctx: AdminContext): Promise<AdminResult> {
  const out = args.values.get('--out');
  if (out === undefined) throw AdminError.usage('--out: required (a new directory for the copies)');
  const layout = openWriteDirectory(args, ctx);
  const dir = prepareBackupDirectory(out);
  const contracts = join(dir, 'contracts.sqlite');
  const consumption = join(dir, 'consumption.sqlite');
  const store = await openAdminContractStore(layout, ctx);
  try {
    await store.backupTo(contracts);
  } catch (error) {
    throw storeRefusal(error);
  } finally {
    store.close();
  }
  const cstore = await openAdminConsumptionStore(layout, ctx);
  try {
    await cstore.backupTo(consumption);
  } catch (error) {
    throw storeRefusal(error);
  } finally {
    cstore.close();
  }
  return adminResult(
    [
      `backed up both stores to ${dir} (0700, files 0600)`,
      `  ${contracts}`,
      `  ${consumption}`,
      `the anchors are NOT copied: keep backups away from the anchor medium; after restoring, run \`pfsense-mcp admin reanchor --accept-restore\` (${RUNBOOK}#restore-from-backup)`,
      'the master key (keys/master.key) is not copied either: back it up separately, never next to these files',
    ],
    { dir, files: [contracts, consumption] },
  );
}
