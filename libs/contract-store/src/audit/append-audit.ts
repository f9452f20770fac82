import { canonicalBytes } from '@pfsense-mcp/canonical';
import type { CanonicalValue } from '@pfsense-mcp/canonical';
import { auditRowMac } from './audit-chain.js';
import type { AuditEventBody } from './audit-chain.js';
import type { RecoveryContract } from '../model/recovery-contract.js';
import { auditHead } from './store-audit-rows.js';
import type { StoreState } from '../store/store-state.js';

/** The value-free extras of a contract's audit row. */
export interface AuditExtras {
  readonly outcomeClass: string | null;
  readonly evidenceDigest?: string | null;
  readonly authorityKeyId?: string | null;
}

/** Appends one row to the HMAC chain (inside the caller's transaction) and marks the write as audited. */
export function appendAudit(s: StoreState, body: AuditEventBody): void {
  const head = auditHead(s);
  const sequence = head.sequence + 1;
  const bytes = canonicalBytes(body as unknown as CanonicalValue);
  const mac = auditRowMac(s.keys.auditChain, s.storeId, sequence, body.contract_id, head.mac, bytes);
  s.stmt.insertAudit.run(sequence, body.contract_id, Buffer.from(bytes), Buffer.from(mac));
  s.life.auditWritten = true;
}

/** The audit row of a change to `contract` (its new state), with the event and the state it left. */
export function auditContract(
  s: StoreState,
  contract: RecoveryContract,
  kind: AuditEventBody['kind'],
  event: string | null,
  from: string | null,
  now: number,
  extras: AuditExtras,
): void {
  appendAudit(s, {
    at: now,
    kind,
    contract_id: contract.contract_id,
    operation_id: contract.operation_id,
    event,
    from_state: from,
    to_state: contract.state,
    state_version: contract.state_version,
    capability: contract.capability,
    endpoint_symbol: contract.endpoint_symbol,
    http_method: contract.http_method,
    target_identity_digest: contract.target_identity_digest,
    intent_digest: contract.intent_digest,
    outcome_class: extras.outcomeClass,
    evidence_digest: extras.evidenceDigest ?? null,
    authority_key_id: extras.authorityKeyId ?? null,
  });
}
