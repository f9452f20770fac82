import { deepFreeze } from '@pfsense-mcp/foundation';
import { appendAudit } from './append-audit.js';
import type { AuditEventView } from './list-audit-events.js';
import { refusalAuditInputSchema } from './refusal-audit-input.js';
import type { RefusalAuditInput } from './refusal-audit-input.js';
import { auditHead } from './store-audit-rows.js';
import { nowOf } from '../store/store-state.js';
import type { StoreState } from '../store/store-state.js';
import { stateFreeAuditBody } from './state-free-audit-body.js';
import { storeWrite } from '../store/store-write.js';
import { zodPaths } from '../model/zod-paths.js';

/**
 * Appends one value-free refusal row (gate code, STALE / ANOMALY, optional operation id, contract id and
 * artifact digest; docs/DESIGN.md §6) to the HMAC-chained audit in its own BEGIN IMMEDIATE transaction,
 * then advances the anchor. Nothing else changes. Input is strict (unknown fields, free text and non-token
 * values are refused with a TypeError naming the fields, never echoing values).
 */
export function recordRefusal(s: StoreState, input: RefusalAuditInput): AuditEventView {
  const parsed = refusalAuditInputSchema.safeParse(input);
  if (!parsed.success) throw new TypeError(`recordRefusal: "input" is invalid at ${zodPaths(parsed.error)}`);
  const r = parsed.data;
  const now = nowOf(s);
  return storeWrite(s, 'recordRefusal', () => {
    const body = stateFreeAuditBody({
      at: now,
      kind: 'refusal',
      contract_id: r.contractId ?? '',
      operation_id: r.operationId ?? null,
      event: r.gate,
      outcome_class: r.refusalClass,
      evidence_digest: r.artifactDigest ?? null,
    });
    appendAudit(s, body);
    return deepFreeze({ sequence: auditHead(s).sequence, ...body });
  });
}
