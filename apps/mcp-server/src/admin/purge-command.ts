import { DEFAULT_RETENTION_MS, SqliteRecoveryContractStore } from '@pfsense-mcp/contract-store';
import type { AdminContext } from './admin-context.js';
import { AdminError } from './admin-error.js';
import { adminResult } from './admin-result.js';
import type { AdminResult } from './admin-result.js';
import { withHeldWriteDirectory } from './hold-write-directory.js';
import { withMasterKey } from './with-master-key.js';
import type { AdminArgs } from './parse-admin-args.js';

/** The retention window in whole days; default: the store's own default (30 days). */
export const RETENTION_DAYS_VARIABLE = 'PFSENSE_WRITE_RETENTION_DAYS';
const DAY_MS = 24 * 60 * 60 * 1000;
const MAX_RETENTION_DAYS = 3650;

/** PFSENSE_WRITE_RETENTION_DAYS as milliseconds (an integer 1..3650), or the default. Refused otherwise. */
export function retentionMsOf(env: Readonly<Record<string, string | undefined>>): number {
  const value = env[RETENTION_DAYS_VARIABLE];
  if (value === undefined || value === '') return DEFAULT_RETENTION_MS;
  if (!/^[0-9]{1,4}$/.test(value) || Number(value) < 1 || Number(value) > MAX_RETENTION_DAYS) {
    throw new AdminError('CONFIG', `${RETENTION_DAYS_VARIABLE}: must be a whole number of days, 1..${MAX_RETENTION_DAYS}`);
  }
  return Number(value) * DAY_MS;
}

/**
 * `admin purge --dir DIR`: the retention purge (docs/DESIGN.md §3): the protected artifacts (encrypted
 * snapshots and intents) of terminal contracts whose end lies further back than the retention window are
 * zeroed and deleted, each with an audit row; then `compact` (WAL checkpoint + VACUUM) so the bytes leave
 * the files. Open contracts, and a ROLLBACK_FAILED contract whose reservation is still held, keep theirs.
 * The server must be stopped (VACUUM needs the database to itself).
 */
export async function purgeCommand(args: AdminArgs, ctx: AdminContext): Promise<AdminResult> {
  const retentionMs = retentionMsOf(ctx.env);
  return withHeldWriteDirectory(args, ctx, 'purge', (layout, hold) =>
    withMasterKey(layout, async (masterKey) => {
      const store = await SqliteRecoveryContractStore.open({
        directory: layout.storeDir,
        masterKey,
        clock: ctx.now,
        anchor: { file: layout.contractsAnchorFile },
        retentionMs,
      });
      try {
        const purged = store.purgeExpiredArtifacts();
        store.compact();
        const days = retentionMs / DAY_MS;
        return adminResult(
          [
            ...hold.notes,
            `retention window: ${days} days (${RETENTION_DAYS_VARIABLE})`,
            ...purged.map((id) => `purged ${id}`),
            `${purged.length} contract(s) purged; store compacted`,
          ],
          { retention_days: days, purged: [...purged] },
        );
      } finally {
        store.close();
      }
    }),
  );
}
