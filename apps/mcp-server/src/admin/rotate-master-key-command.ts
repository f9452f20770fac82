import { rotateMasterKey } from '@pfsense-mcp/contract-store';
import { rotationPathsOf } from '../runtime/write-directory/settle-key-rotation.js';
import type { AdminContext } from './admin-context.js';
import { adminResult } from './admin-result.js';
import type { AdminResult } from './admin-result.js';
import { storeRefusal } from './open-admin-stores.js';
import { withHeldWriteDirectory } from './hold-write-directory.js';
import type { AdminArgs } from './parse-admin-args.js';

/**
 * `admin rotate master-key --dir DIR` (docs/OPERATIONS.md "Rotating the master key"; the protocol is the
 * contract-store README's): a new master key, every row of both stores re-MACed, both chains re-linked, every
 * protected artifact re-encrypted and both anchors rewritten under it, at the next key epoch. Holds the
 * maintenance lock (refused while a server runs on DIR); refused while a contract is EXECUTING or ROLLING_BACK.
 * Prints epochs and counts, never a key.
 */
export async function rotateMasterKeyCommand(args: AdminArgs, ctx: AdminContext): Promise<AdminResult> {
  return withHeldWriteDirectory(args, ctx, 'rotate master-key', async (layout, hold) => {
    const r = await rotateMasterKey({ ...rotationPathsOf(layout), clock: ctx.now }).catch((error: unknown) => {
      throw storeRefusal(error);
    });
    return adminResult(
      [
        `master key rotated: key epoch ${r.oldEpoch} -> ${r.newEpoch}`,
        `  contract store: ${r.contractRowsRemaced} rows re-MACed (audit chain re-linked), ${r.artifactsReencrypted} protected artifacts re-encrypted`,
        `  consumption store: ${r.consumptionRowsRemaced} rows re-MACed (chain re-linked)`,
        `  anchors rewritten: ${r.anchorsRewritten}; the old key is gone: backups taken before now need the old key (take a new backup)`,
        ...hold.notes,
      ],
      {
        old_epoch: r.oldEpoch,
        new_epoch: r.newEpoch,
        contract_rows_remaced: r.contractRowsRemaced,
        consumption_rows_remaced: r.consumptionRowsRemaced,
        artifacts_reencrypted: r.artifactsReencrypted,
        anchors_rewritten: r.anchorsRewritten,
      },
    );
  });
}
