/**
 * Closed set of digest domains. Every digest in the product names exactly one purpose, so equal values
 * hashed for different reasons never collide. Extend only by adding members (with tests); never rename a
 * value — it is part of every stored digest.
 */
export const DigestPurpose = Object.freeze({
  KEY_ID: 'key-id',
  CONTRACT_RECORD: 'contract-record',
  AUDIT_EVENT: 'audit-event',
  AUDIT_ANCHOR: 'audit-anchor',
  TARGET_IDENTITY: 'target-identity',
  TARGET_FINGERPRINT: 'target-fingerprint',
  INTENT: 'intent',
  SNAPSHOT: 'snapshot',
  EXECUTION_INTENT: 'execution-intent',
  APPLIANCE_BINDING: 'appliance-binding',
  PLAN_AUTHORIZATION_V2: 'plan-authorization-v2',
  AUTHORIZATION_REQUEST: 'authorization-request',
  CONFIRMATION_REQUEST: 'confirmation-request',
  CONFIRMATION: 'confirmation',
  RECONCILIATION_REQUEST: 'reconciliation-request',
  RECONCILIATION: 'reconciliation',
  CONSUMPTION_RECORD: 'consumption-record',
  // The plan digest (an operation's step → execution-intent set) has its own domain.
  PLAN: 'plan',
  // The lab runner's gate: the runner's pending gate request and the operator's signed gate receipt.
  LAB_GATE_REQUEST: 'lab-gate-request',
  LAB_GATE_RECEIPT: 'lab-gate-receipt',
  // The executor's config-history evidence: the new revisions' descriptions, and the whole value-free evidence.
  CONFIG_HISTORY_DESCRIPTIONS: 'config-history-descriptions',
  CONFIG_HISTORY_EVIDENCE: 'config-history-evidence',
} as const);

export type DigestPurpose = (typeof DigestPurpose)[keyof typeof DigestPurpose];

const PURPOSES: ReadonlySet<string> = new Set(Object.values(DigestPurpose));

/** True only for a member value of `DigestPurpose`. */
export function isDigestPurpose(value: unknown): value is DigestPurpose {
  return typeof value === 'string' && PURPOSES.has(value);
}
