import type { RecoveryContract } from '@pfsense-mcp/contract-store';
import { RecoveryState } from '@pfsense-mcp/state-machine';
import { OperationStatus, isClosed, statusOfContract } from './operation-outcome.js';
import { confirmationRequestName, reconciliationRequestName, releaseRequestName } from './pending-request-names.js';
import { PendingRequestKind, pendingRequest } from './pending-request.js';
import type { PendingRequest } from './pending-request.js';

/**
 * One write operation as the store and the outbox know it, for a client checking on its requests: ids, status,
 * state and times only — never a description, alias name, key or file content.
 */
export interface WriteOperationView {
  readonly operationId: string;
  readonly status: OperationStatus;
  /** The state of the operation's latest contract (attempt); null while its first request waits for a signature. */
  readonly contractState: RecoveryState | null;
  readonly contractId: string | null;
  /** How many contracts (attempts) the operation has (0 while its first request waits for a signature). */
  readonly attempts: number;
  /** created_at of its first contract (or its first pending request's issued_at when it has none), UTC ms. */
  readonly createdAt: number;
  /** updated_at of its latest contract, or the issued_at of a newer pending request, UTC ms. */
  readonly updatedAt: number;
  /** The request the operator must sign next (kind, outbox file name), when the server has written it; else null. */
  readonly pendingRequest: PendingRequest | null;
}

/**
 * An authorization request in the outbox that no contract answers yet and that has not expired: the operation
 * is `requested` (its name and the server's signature on the file say so; nothing of its content is shown).
 */
export interface RequestedOperation {
  readonly operationId: string;
  readonly fileName: string;
  readonly issuedAt: number;
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
 * Groups authenticated contracts and pending authorization requests by operation: newest first (the latest
 * attempt's created_at or the pending request's issued_at, then the operation id), filtered by operation id, then
 * offset and limit. An operation with a pending authorization request — none of its contracts yet, or a new
 * attempt after a closed one — is `requested` with that file to sign. `exists` says whether an outbox file of
 * that name is there (by name, nothing opened).
 */
export function writeOperationsView(
  contracts: readonly RecoveryContract[],
  query: WriteOperationsQuery,
  exists: (fileName: string) => boolean,
  requested: readonly RequestedOperation[] = [],
): WriteOperationsPage {
  const byOperation = new Map<string, { contracts: RecoveryContract[]; request: RequestedOperation | null }>();
  const groupOf = (operationId: string) => {
    let g = byOperation.get(operationId);
    if (g === undefined) byOperation.set(operationId, (g = { contracts: [], request: null }));
    return g;
  };
  for (const c of contracts) {
    if (query.operationId !== undefined && c.operation_id !== query.operationId) continue;
    groupOf(c.operation_id).contracts.push(c);
  }
  for (const r of requested) {
    if (query.operationId !== undefined && r.operationId !== query.operationId) continue;
    const g = groupOf(r.operationId);
    if (g.request === null || r.issuedAt > g.request.issuedAt) g.request = r;
  }
  const order = (a: RecoveryContract, b: RecoveryContract): number =>
    a.created_at - b.created_at || (a.contract_id < b.contract_id ? -1 : a.contract_id > b.contract_id ? 1 : 0);
  const views = [...byOperation.entries()].map(([operationId, g]): { at: number; tie: string; view: WriteOperationView } => {
    const list = g.contracts.sort(order);
    const latest = list[list.length - 1];
    // A pending authorization request is the operation's next step unless an open contract already answers it.
    const request = g.request !== null && (latest === undefined || isClosed(latest)) ? g.request : null;
    if (latest === undefined || request !== null) {
      const r = request as RequestedOperation;
      return {
        at: Math.max(r.issuedAt, latest?.created_at ?? r.issuedAt),
        tie: latest?.contract_id ?? operationId,
        view: Object.freeze({
          operationId,
          status: OperationStatus.REQUESTED,
          contractState: latest?.state ?? null,
          contractId: latest?.contract_id ?? null,
          attempts: list.length,
          createdAt: list[0]?.created_at ?? r.issuedAt,
          updatedAt: Math.max(r.issuedAt, latest?.updated_at ?? r.issuedAt),
          pendingRequest: pendingRequest(PendingRequestKind.AUTHORIZATION, r.fileName),
        }),
      };
    }
    const first = list[0] as RecoveryContract;
    const pending = pendingRequestOf(latest);
    return {
      at: latest.created_at,
      tie: latest.contract_id,
      view: Object.freeze({
        operationId,
        status: statusOfContract(latest),
        contractState: latest.state,
        contractId: latest.contract_id,
        attempts: list.length,
        createdAt: first.created_at,
        updatedAt: latest.updated_at,
        pendingRequest: pending !== null && exists(pending.file) ? pending : null,
      }),
    };
  });
  views.sort((a, b) => b.at - a.at || (a.tie < b.tie ? 1 : a.tie > b.tie ? -1 : 0));
  const page = views.slice(query.offset, query.offset + query.limit).map((v) => v.view);
  return Object.freeze({ operations: Object.freeze(page), total: views.length });
}
