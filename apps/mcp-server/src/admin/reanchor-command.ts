import { SqliteConsumptionStore, SqliteRecoveryContractStore } from '@pfsense-mcp/contract-store';
import type { AdminContext } from './admin-context.js';
import { AdminError } from './admin-error.js';
import { adminResult } from './admin-result.js';
import type { AdminResult } from './admin-result.js';
import { withHeldWriteDirectory } from './hold-write-directory.js';
import { withMasterKey } from './with-master-key.js';
import type { AdminArgs } from './parse-admin-args.js';

/**
 * `admin reanchor --accept-restore --dir DIR`: the one explicit acceptance of databases restored from a
 * backup (docs/DESIGN.md §3; apps/mcp-server README). Both stores are verified in full; the
 * contract store refuses while a contract is EXECUTING, ROLLING_BACK or RECONCILIATION (nothing written
 * then); both anchors are re-pointed at the restored heads with the acceptance time, restored
 * PREPARING/PREPARED contracts expire, and from then on every authorization issued at or before the
 * acceptance is refused at the consumption gate. The server must be stopped.
 */
export async function reanchorCommand(args: AdminArgs, ctx: AdminContext): Promise<AdminResult> {
  if (!args.flags.has('--accept-restore'))
    throw AdminError.usage('--accept-restore: required (reanchor only accepts a restore, explicitly)');
  return withHeldWriteDirectory(args, ctx, 'reanchor', (layout, hold) =>
    withMasterKey(layout, async (masterKey) => {
      // One acceptance time for both anchors.
      const now = ctx.now();
      const clock = (): number => now;
      // The contract store first: its refusal (work in flight) must leave the consumption anchor untouched.
      const store = await SqliteRecoveryContractStore.acceptRestore({
        directory: layout.storeDir,
        masterKey,
        clock,
        anchor: { file: layout.contractsAnchorFile },
      });
      store.close();
      const acceptedAt = await SqliteConsumptionStore.acceptRestore({
        directory: layout.storeDir,
        masterKey,
        clock,
        anchor: { file: layout.consumptionAnchorFile },
      });
      const at = new Date(acceptedAt).toISOString();
      return adminResult(
        [
          ...hold.notes,
          `restore accepted at ${at}: both anchors re-pointed at the restored stores`,
          'restored PREPARING/PREPARED contracts are expired; every authorization issued before this time is refused',
          'ask the operator for fresh signatures for any change still wanted',
        ],
        { accepted_restore_at: acceptedAt },
      );
    }),
  );
}
