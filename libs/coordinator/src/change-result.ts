import { OperationStatus } from './operation-outcome.js';
import type { PendingRequest } from './pending-request.js';

/** The caller's request, by the capability's wire names (for the alias description: `{alias_name, description}`). */
export type ChangeInput = Readonly<Record<string, unknown>>;

/** What one call returns (frozen). Never says which gate refused. */
export interface ChangeResult {
  readonly status: OperationStatus;
  /** Derived from appliance binding + the checked input; always null when `refused` (one shape for every refusal). */
  readonly operationId: string | null;
  /** The operation's current contract, when one exists (null when `refused`). */
  readonly contractId: string | null;
  /** The request the operator should review and sign now, when one is pending: its kind and outbox file name. */
  readonly pendingRequest: PendingRequest | null;
  /**
   * `requested` only, and only then present: when this operation's earlier authorization request expired
   * unanswered (UTC ms) and the pending one was written in its place. A time only, never the file.
   */
  readonly earlierRequestExpiredAt?: number;
  /**
   * `refused` only, and only when waiting is all the same call needs — a change of the same target completed
   * moments ago (its cooldown, docs/DESIGN.md §3): when it may pass (UTC ms). Every other refusal has none.
   */
  readonly retryAt?: number;
}

const REFUSED: ChangeResult = Object.freeze({ status: OperationStatus.REFUSED, operationId: null, contractId: null, pendingRequest: null });

/** The refusal of a call that passes by waiting alone (a target cooldown): `refused` with when it may pass. */
export function refusedUntil(retryAt: number): ChangeResult {
  return Object.freeze({ ...REFUSED, retryAt });
}

/**
 * Every `refused` has one shape — no operation id, contract id or pending request — whichever gate refused
 * and whether the binding could be read at all (docs/DESIGN.md §6: `refused` never says which gate refused;
 * an id present for some gates and absent for others would say it). The ids are in the audit.
 */
export function changeResult(
  status: OperationStatus,
  operationId: string | null,
  contractId: string | null = null,
  pendingRequest: PendingRequest | null = null,
  earlierRequestExpiredAt: number | null = null,
): ChangeResult {
  if (status === OperationStatus.REFUSED) return REFUSED;
  return Object.freeze({
    status,
    operationId,
    contractId,
    pendingRequest,
    ...(earlierRequestExpiredAt === null ? {} : { earlierRequestExpiredAt }),
  });
}
