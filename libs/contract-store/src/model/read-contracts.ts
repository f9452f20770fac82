import { isHex64, isSafeToken } from '@pfsense-mcp/canonical';
import { RecoveryState } from '@pfsense-mcp/state-machine';
import { loadIn, verifyRow } from './contract-rows.js';
import { inTransaction } from '../store/in-transaction.js';
import type { RecoveryContract } from './recovery-contract.js';
import type { ContractRow } from '../store/store-statements.js';
import { assertOpen } from '../store/store-state.js';
import type { StoreState } from '../store/store-state.js';

export interface ListFilter {
  readonly states?: readonly RecoveryState[];
  readonly operationId?: string;
  /** Only the contracts on this target (its identity digest): one index range (`contracts_by_target`), not a scan. */
  readonly targetIdentityDigest?: string;
  readonly afterContractId?: string;
  readonly limit?: number;
}

/** Authenticates the row before returning anything. */
export function load(s: StoreState, contractId: string): RecoveryContract {
  assertOpen(s);
  return inTransaction(s.db, 'deferred', () => loadIn(s, contractId));
}

/** Authenticated contracts for status views, ordered by contract id (keyset pagination). */
export function list(s: StoreState, filter: ListFilter = {}): readonly RecoveryContract[] {
  assertOpen(s);
  const limit = filter.limit ?? 100;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000) throw new TypeError('list: "limit" must be an integer in 1..1000');
  if (filter.operationId !== undefined && !isSafeToken(filter.operationId)) throw new TypeError('list: "operationId" must be a safe token');
  if (filter.targetIdentityDigest !== undefined && !isHex64(filter.targetIdentityDigest))
    throw new TypeError('list: "targetIdentityDigest" must be 64 lowercase hex characters');
  if (filter.afterContractId !== undefined && !isSafeToken(filter.afterContractId))
    throw new TypeError('list: "afterContractId" must be a safe token');
  const states = filter.states ?? null;
  if (states !== null) {
    if (!Array.isArray(states) || states.some((st) => !(Object.values(RecoveryState) as string[]).includes(st))) {
      throw new TypeError('list: "states" must be an array of RecoveryState');
    }
  }
  return s.db.transaction(() => {
    const clauses: string[] = [];
    const params: unknown[] = [];
    if (states !== null) {
      clauses.push(`state IN (${states.map(() => '?').join(',') || "''"})`);
      params.push(...states);
    }
    if (filter.operationId !== undefined) {
      clauses.push('operation_id = ?');
      params.push(filter.operationId);
    }
    if (filter.targetIdentityDigest !== undefined) {
      clauses.push('target_identity_digest = ?');
      params.push(filter.targetIdentityDigest);
    }
    if (filter.afterContractId !== undefined) {
      clauses.push('contract_id > ?');
      params.push(filter.afterContractId);
    }
    const where = clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '';
    const rows = s.db.prepare(`SELECT * FROM contracts ${where} ORDER BY contract_id LIMIT ?`).all(...params, limit) as ContractRow[];
    return Object.freeze(rows.map((row) => verifyRow(s, row)));
  })();
}
