import { isSafeToken } from '@pfsense-mcp/canonical';
import { deepFreeze } from '@pfsense-mcp/foundation';
import { auditRowMac } from './audit-chain.js';
import type { AuditEventBody } from './audit-chain.js';
import { AuditChainError } from '../store/contract-store-error.js';
import { macMatches } from '../integrity/row-mac.js';
import { assertOpen } from '../store/store-state.js';
import type { StoreState } from '../store/store-state.js';

export interface AuditEventView extends AuditEventBody {
  readonly sequence: number;
}

export interface AuditEventFilter {
  readonly contractId?: string;
  readonly afterSequence?: number;
  readonly limit?: number;
}

/** Value-free audit rows (for status views; their chain is checked by verifyAuditChain). */
export function listAuditEvents(s: StoreState, filter: AuditEventFilter = {}): readonly AuditEventView[] {
  assertOpen(s);
  const limit = filter.limit ?? 100;
  const after = filter.afterSequence ?? 0;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 10_000)
    throw new TypeError('listAuditEvents: "limit" must be an integer in 1..10000');
  if (!Number.isSafeInteger(after) || after < 0) throw new TypeError('listAuditEvents: "afterSequence" must be a non-negative integer');
  if (filter.contractId !== undefined && !isSafeToken(filter.contractId))
    throw new TypeError('listAuditEvents: "contractId" must be a safe token');
  const id = filter.contractId ?? null;
  const rows = s.db.transaction(
    () =>
      s.stmt.auditList.all(id, id, after, limit) as {
        sequence: number;
        contract_id: string;
        body: Buffer;
        mac: Buffer;
        previous_mac: Buffer | null;
      }[],
  )();
  // Each returned row is authenticated against its predecessor's stored MAC (one chain link), so a
  // tampered row is an AuditChainError, never a parse error or a forged event. The whole-chain walk
  // (prefix complete, head matches the anchor) stays verifyAuditChain()'s job.
  return Object.freeze(
    rows.map((r) => {
      const previous = r.sequence === 1 ? s.genesisMac : r.previous_mac;
      if (previous === null || !(r.body instanceof Uint8Array) || !(r.mac instanceof Uint8Array)) throw new AuditChainError(r.sequence);
      const expected = auditRowMac(s.keys.auditChain, s.storeId, r.sequence, r.contract_id, previous, r.body);
      if (!macMatches(expected, r.mac)) throw new AuditChainError(r.sequence);
      let body: unknown;
      try {
        body = JSON.parse(r.body.toString('utf8'));
      } catch {
        throw new AuditChainError(r.sequence);
      }
      if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new AuditChainError(r.sequence);
      return deepFreeze({ sequence: r.sequence, ...(body as AuditEventBody) });
    }),
  );
}
