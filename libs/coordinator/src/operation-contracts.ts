import { isSafeToken } from '@pfsense-mcp/canonical';
import type { ListFilter, RecoveryContract, SqliteRecoveryContractStore } from '@pfsense-mcp/contract-store';
import type { RecoveryState } from '@pfsense-mcp/state-machine';

/** Every authenticated contract the store's filter selects, in contract-id order (keyset pages of `pageSize`). */
function pagedContracts(
  store: SqliteRecoveryContractStore,
  filter: Omit<ListFilter, 'limit' | 'afterContractId'>,
  pageSize: number,
): RecoveryContract[] {
  const all: RecoveryContract[] = [];
  let after: string | undefined;
  for (;;) {
    const page = store.list({ ...filter, limit: pageSize, ...(after === undefined ? {} : { afterContractId: after }) });
    all.push(...page);
    if (page.length < pageSize) break;
    after = page[page.length - 1]?.contract_id;
  }
  return all;
}

/** Authenticated contracts of one operation, oldest first (paged reads of 100). */
export function contractsOfOperation(store: SqliteRecoveryContractStore, operationId: string): readonly RecoveryContract[] {
  if (!isSafeToken(operationId)) throw new TypeError('contractsOfOperation: "operationId" must be a safe token');
  const all = pagedContracts(store, { operationId }, 100);
  all.sort((a, b) => a.created_at - b.created_at || (a.contract_id < b.contract_id ? -1 : 1));
  return Object.freeze(all);
}

/** Authenticated contracts on one target (its identity digest), in contract-id order: an index range, not every contract. */
export function contractsOnTarget(store: SqliteRecoveryContractStore, targetIdentityDigest: string): readonly RecoveryContract[] {
  return Object.freeze(pagedContracts(store, { targetIdentityDigest }, 1000));
}

/** Authenticated contracts in one of `states`, in contract-id order (paged reads of 1,000). */
export function contractsInStates(store: SqliteRecoveryContractStore, states: readonly RecoveryState[]): readonly RecoveryContract[] {
  return Object.freeze(pagedContracts(store, { states }, 1000));
}

/** Every authenticated contract of the store, in contract-id order (paged reads of 1,000). */
export function allContracts(store: SqliteRecoveryContractStore): readonly RecoveryContract[] {
  return Object.freeze(pagedContracts(store, {}, 1000));
}
