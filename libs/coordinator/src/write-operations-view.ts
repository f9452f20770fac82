import type { RecoveryContract } from '@pfsense-mcp/contract-store';
import { RecoveryState } from '@pfsense-mcp/state-machine';
import type { OperationStatus } from './operation-outcome.js';
import { statusOfContract } from './operation-outcome.js';
import { confirmationRequestName, reconciliationRequestName, releaseRequestName } from './pending-request-names.js';
import { PendingRequestKind, pendingRequest } from './pending-request.js';
import type { PendingRequest } from './pending-request.js';

/**
 * One write operation as the store knows it, for a client checking on its requests: ids, status, state and
 * times only — never a description, alias name, key or file content.
 */
export interface WriteOperationView {
  readonly operationId: string;
  readonly status: OperationStatus;
  /** The state of the operation's latest contract (attempt). */
  readonly contractState: RecoveryState;
  readonly contractId: string;
  /** How many contracts (attempts) the operation has. */
  readonly attempts: number;
  /** created_at of its first contract, UTC ms. */
  readonly createdAt: number;
  /** updated_at of its latest contract, UTC ms. */
  readonly updatedAt: number;
  /** The request the operator must sign next (kind, outbox file name), when the server has written it; else null. */
  readonly pendingRequest: PendingRequest | null;
}

export interface WriteOperationsQuery {
  readonly operationId?: string;
  readonly limit: number;
  readonly offset: number;
}

export interface WriteOperationsPage {
  readonly operations: readonly WriteOperationView[];
  /** Operations matching the query before limit/offset. */
  readonly total: number;
}

/** The request the operator must sign next for this contract, if one is due (by name; existence checked by the caller). */
export function pendingRequestOf(c: RecoveryContract): PendingRequest | null {
  if (c.state === RecoveryState.PREPARED && c.confirmation === null)
    return pendingRequest(PendingRequestKind.CONFIRMATION, confirmationRequestName(c.contract_id));
  if (c.state === RecoveryState.RECONCILIATION)
    return pendingRequest(PendingRequestKind.RECONCILIATION, reconciliationRequestName(c.contract_id, c.state_version));
  if (c.state === RecoveryState.ROLLBACK_FAILED && c.reservation_release === null)
    return pendingRequest(PendingRequestKind.RELEASE, releaseRequestName(c.contract_id, c.state_version));
  return null;
}

/**
 * Groups authenticated contracts by operation: newest first (the latest attempt's created_at, then its
 * contract id), filtered by operation id, then offset and limit. `exists` says whether an outbox file of
 * that name is there (by name, nothing opened).
 */
export function writeOperationsView(
  contracts: readonly RecoveryContract[],
  query: WriteOperationsQuery,
  exists: (fileName: string) => boolean,
): WriteOperationsPage {
  const byOperation = new Map<string, RecoveryContract[]>();
  for (const c of contracts) {
    if (query.operationId !== undefined && c.operation_id !== query.operationId) continue;
    const list = byOperation.get(c.operation_id) ?? [];
    list.push(c);
    byOperation.set(c.operation_id, list);
  }
  const order = (a: RecoveryContract, b: RecoveryContract): number =>
    a.created_at - b.created_at || (a.contract_id < b.contract_id ? -1 : a.contract_id > b.contract_id ? 1 : 0);
  const groups = [...byOperation.values()].map((list) => list.sort(order));
  const latestOf = (list: RecoveryContract[]): RecoveryContract => list[list.length - 1] as RecoveryContract;
  groups.sort((a, b) => order(latestOf(b), latestOf(a)));
  const page = groups.slice(query.offset, query.offset + query.limit).map((list): WriteOperationView => {
    const latest = latestOf(list);
    const first = list[0] as RecoveryContract;
    const pending = pendingRequestOf(latest);
    return Object.freeze({
      operationId: latest.operation_id,
      status: statusOfContract(latest),
      contractState: latest.state,
      contractId: latest.contract_id,
      attempts: list.length,
      createdAt: first.created_at,
      updatedAt: latest.updated_at,
      pendingRequest: pending !== null && exists(pending.file) ? pending : null,
    });
  });
  return Object.freeze({ operations: Object.freeze(page), total: groups.length });
}
