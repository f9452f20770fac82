import type { AuditEventBody } from './audit-chain.js';

/** The fields a row that changes no contract state carries; every state, capability and target field is null. */
export type StateFreeAuditFields = Pick<
  AuditEventBody,
  'at' | 'kind' | 'contract_id' | 'operation_id' | 'event' | 'outcome_class' | 'evidence_digest'
>;

/**
 * The body of an audit row that records a fact without a transition (a refusal, an accepted restore;
 * docs/DESIGN.md §3): one place spells out the nulls, in the chain's column order.
 */
export function stateFreeAuditBody(f: StateFreeAuditFields): AuditEventBody {
  return {
    at: f.at,
    kind: f.kind,
    contract_id: f.contract_id,
    operation_id: f.operation_id,
    event: f.event,
    from_state: null,
    to_state: null,
    state_version: null,
    capability: null,
    endpoint_symbol: null,
    http_method: null,
    target_identity_digest: null,
    intent_digest: null,
    outcome_class: f.outcome_class,
    evidence_digest: f.evidence_digest,
    authority_key_id: null,
  };
}
