import { isSafeToken } from '@pfsense-mcp/canonical';
import type { RecoveryContract, SqliteRecoveryContractStore } from '@pfsense-mcp/contract-store';

/** Authenticated contracts of one operation, oldest first (paged reads of 100). */
export function contractsOfOperation(store: SqliteRecoveryContractStore, operationId: string): readonly RecoveryContract[] {
  if (!isSafeToken(operationId)) throw new TypeError('contractsOfOperation: "operationId" must be a safe token');
  const all: RecoveryContract[] = [];
  let after: string | undefined;
  for (;;) {
    const page = store.list({ operationId, limit: 100, ...(after === undefined ? {} : { afterContractId: after }) });
    all.push(...page);
    if (page.length < 100) break;
    after = page[page.length - 1]?.contract_id;
  }
  all.sort((a, b) => a.created_at - b.created_at || (a.contract_id < b.contract_id ? -1 : 1));
  return Object.freeze(all);
}

/** Every authenticated contract of the store, in contract-id order (paged reads of 1,000). */
export function allContracts(store: SqliteRecoveryContractStore): readonly RecoveryContract[] {
  const all: RecoveryContract[] = [];
  let after: string | undefined;
  for (;;) {
    const page = store.list({ limit: 1000, ...(after === undefined ? {} : { afterContractId: after }) });
    all.push(...page);
    if (page.length < 1000) break;
    after = page[page.length - 1]?.contract_id;
  }
  return Object.freeze(all);
}
