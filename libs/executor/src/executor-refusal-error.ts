import { CodedError } from '@pfsense-mcp/foundation';

/** Why the executor refused before holding a reservation (nothing sent, no state changed). Stable strings. */
export type ExecutorRefusalCode =
  | 'CONTRACT_NOT_FOUND'
  | 'STORE_INTEGRITY'
  | 'WRONG_STATE'
  | 'NOT_CONFIRMED'
  | 'CONTRACT_EXPIRED'
  | 'CONFIRMATION_EXPIRED'
  | 'MISSING_VERIFIED_SEAL'
  | 'POLICY_REFUSED'
  | 'ADAPTER_INVALID'
  | 'INTENT_INVALID'
  | 'BINDING_MISMATCH'
  | 'ARTIFACT_UNAVAILABLE'
  | 'ANCHOR_REFUSED'
  | 'TARGET_RESERVED'
  | 'STALE_STATE'
  | 'RATE_LIMITED'
  | 'TARGET_UNRESOLVED'
  | 'TARGET_CHANGED_SINCE_VERIFIED'
  | 'CONFIG_HISTORY_UNAVAILABLE'
  | 'FOREIGN_PENDING'
  | 'APPLY_STATUS_UNAVAILABLE'
  | 'ROLLBACK_AUTHORIZATION_REQUIRED'
  | 'AUTHORIZATION_CONSUMED'
  | 'STORE_FAILURE';

export type ExecutorOperation = 'execute' | 'rollback' | 'observeReconciliationTarget';

/**
 * A refusal before the target reservation was acquired (or, for observeReconciliationTarget, before any
 * observation): no transition happened and nothing was sent. Carries only ids, codes and field names —
 * never a description, an alias name, an intent or a response.
 */
export class ExecutorRefusalError extends CodedError<ExecutorRefusalCode> {
  override readonly name = 'ExecutorRefusalError';
  readonly operation: ExecutorOperation;
  readonly contractId: string;
  /** For BINDING_MISMATCH: the binding field that differs (a field name, never a value). */
  readonly field: string | null;
  /** The underlying error's stable code, when it had one (e.g. STORE_MISSING, NOT_ALLOW_LISTED, NOT_FOUND). */
  readonly reason: string | null;
  /** Always 0: a refusal never sends. */
  readonly sends = 0;

  constructor(
    code: ExecutorRefusalCode,
    operation: ExecutorOperation,
    contractId: string,
    detail: { readonly field?: string | null; readonly reason?: string | null } = {},
  ) {
    const field = detail.field ?? null;
    const reason = detail.reason ?? null;
    super(code, `${operation} refused for contract ${contractId}: ${code}${field === null ? '' : ` (${field})`}`);
    this.operation = operation;
    this.contractId = contractId;
    this.field = field;
    this.reason = reason;
  }
}
