import type { AdminContext } from './admin-context.js';
import { AdminError } from './admin-error.js';
import { adminResult } from './admin-result.js';
import type { AdminResult } from './admin-result.js';
import { contractIdOperand, withContractStore } from './open-admin-stores.js';
import { openWriteDirectory } from './open-write-directory.js';
import type { AdminArgs } from './parse-admin-args.js';

/** `admin expire`: PREPARING/PREPARED contracts past their expiry → EXPIRED (the server does it at every start). */
export async function expireCommand(args: AdminArgs, ctx: AdminContext): Promise<AdminResult> {
  const layout = openWriteDirectory(args, ctx);
  const expired = await withContractStore(layout, ctx, (store) => store.expire());
  return adminResult(expired.length === 0 ? ['nothing to expire'] : expired.map((id) => `expired ${id}`), { expired });
}

/** `admin cancel CONTRACT_ID`: takes back a PREPARED, unexecuted contract (terminal, audited; the alias is free). */
export async function cancelCommand(args: AdminArgs, ctx: AdminContext, operand: string): Promise<AdminResult> {
  const contractId = contractIdOperand(operand);
  const layout = openWriteDirectory(args, ctx);
  const c = await withContractStore(layout, ctx, (store) => {
    const current = store.load(contractId);
    if (current.state !== 'PREPARED') {
      throw new AdminError(
        'WRONG_STATE',
        `CONTRACT_ID: is ${current.state}; cancel takes back only a PREPARED contract that never began executing`,
      );
    }
    return store.cancel(contractId);
  });
  return adminResult([`cancelled ${c.contract_id}: ${c.state} (outcome CANCELLED); the alias is free for a new request`], {
    contract_id: c.contract_id,
    state: c.state,
    outcome: c.last_outcome_class,
  });
}
