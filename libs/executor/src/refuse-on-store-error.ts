import {
  AnchorError,
  AuditChainError,
  BindingMismatchError,
  ContractNotFoundError,
  PreconditionError,
  ProtectedArtifactError,
  RateLimitError,
  RecordIntegrityError,
  StaleStateVersionError,
  StoreRollbackError,
  TargetReservedError,
} from '@pfsense-mcp/contract-store';
import { IllegalTransitionError } from '@pfsense-mcp/state-machine';
import { ExecutorRefusalError } from './executor-refusal-error.js';
import type { ExecutorOperation, ExecutorRefusalCode } from './executor-refusal-error.js';

const OUTCOME_CLASS = /^[A-Z][A-Z0-9_]{0,63}$/;

/** An error's own `code` when it is a value-free class (`[A-Z][A-Z0-9_]*`), else null. */
export function safeCode(error: unknown): string | null {
  const code = error !== null && typeof error === 'object' ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && OUTCOME_CLASS.test(code) ? code : null;
}

/** Maps a store error thrown before or while acquiring the reservation to a refusal code. */
function storeRefusalCode(error: unknown): ExecutorRefusalCode {
  if (error instanceof IllegalTransitionError) return 'WRONG_STATE';
  if (error instanceof ContractNotFoundError) return 'CONTRACT_NOT_FOUND';
  if (error instanceof TargetReservedError) return 'TARGET_RESERVED';
  if (error instanceof StaleStateVersionError) return 'STALE_STATE';
  if (error instanceof RateLimitError) return 'RATE_LIMITED';
  if (error instanceof StoreRollbackError || error instanceof AnchorError || error instanceof AuditChainError) return 'ANCHOR_REFUSED';
  if (error instanceof RecordIntegrityError) return 'STORE_INTEGRITY';
  if (error instanceof ProtectedArtifactError) return 'ARTIFACT_UNAVAILABLE';
  if (error instanceof BindingMismatchError) return 'BINDING_MISMATCH';
  if (error instanceof PreconditionError) {
    const code = safeCode(error);
    if (
      code === 'NOT_CONFIRMED' ||
      code === 'CONTRACT_EXPIRED' ||
      code === 'CONFIRMATION_EXPIRED' ||
      code === 'WRONG_STATE' ||
      code === 'ROLLBACK_AUTHORIZATION_REQUIRED' ||
      code === 'AUTHORIZATION_CONSUMED'
    )
      return code;
    return 'WRONG_STATE';
  }
  return 'STORE_FAILURE';
}

/**
 * Runs a store step before the reservation is held; any error becomes an ExecutorRefusalError naming the
 * refusal code (and, for a binding mismatch, the field) — never the store's message.
 */
export function refuseOnStoreError<T>(op: ExecutorOperation, contractId: string, body: () => T): T {
  try {
    return body();
  } catch (error) {
    if (error instanceof ExecutorRefusalError) throw error;
    const code = storeRefusalCode(error);
    const field = code === 'BINDING_MISMATCH' ? ((error as { field?: string }).field ?? null) : null;
    throw new ExecutorRefusalError(code, op, contractId, { field, reason: safeCode(error) });
  }
}
