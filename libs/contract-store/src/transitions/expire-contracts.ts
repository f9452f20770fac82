import { isSafeToken } from '@pfsense-mcp/canonical';
import { RecoveryEvent, RecoveryState } from '@pfsense-mcp/state-machine';
import { loadIn, verifyRow } from '../model/contract-rows.js';
import { transition } from './contract-transition.js';
import { PreconditionError } from '../store/contract-store-error.js';
import type { RecoveryContract } from '../model/recovery-contract.js';
import type { ContractRow } from '../store/store-statements.js';
import { nowOf } from '../store/store-state.js';
import type { StoreState } from '../store/store-state.js';
import { storeWrite } from '../store/store-write.js';

/** PREPARING/PREPARED contracts whose expiry has passed → EXPIRED. Never touches anything later. Returns the expired ids. */
export function expire(s: StoreState): readonly string[] {
  return storeWrite(s, 'expire', () => {
    const now = nowOf(s);
    const rows = s.stmt.expirable.all(now) as ContractRow[];
    const expired: string[] = [];
    for (const row of rows) {
      const c = verifyRow(s, row);
      transition(s, c, c.state_version, RecoveryEvent.EXPIRE, {}, { outcomeClass: 'EXPIRED' }, now);
      expired.push(c.contract_id);
    }
    return Object.freeze(expired);
  });
}

/**
 * The operator takes back a PREPARED contract that never began executing (`pfsense-mcp admin cancel`):
 * PREPARED → EXPIRED with outcome CANCELLED, audited, in one CAS transition; the target is free at once.
 */
export function cancel(s: StoreState, contractId: string): RecoveryContract {
  if (!isSafeToken(contractId)) throw new TypeError('cancel: "contractId" must be a safe token');
  return storeWrite(s, 'cancel', () => {
    const c = loadIn(s, contractId);
    if (c.state !== RecoveryState.PREPARED)
      throw new PreconditionError('WRONG_STATE', contractId, `cancel needs PREPARED, contract is ${c.state}`);
    return transition(s, c, c.state_version, RecoveryEvent.EXPIRE, {}, { outcomeClass: 'CANCELLED' }, nowOf(s));
  });
}
