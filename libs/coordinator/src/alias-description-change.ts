import { OperationStatus } from './operation-outcome.js';

/** The caller's request: change one alias's description. */
export interface AliasDescriptionChangeInput {
  readonly aliasName: string;
  readonly description: string;
}

/** What one call returns (frozen). Never says which gate refused. */
export interface AliasDescriptionChangeResult {
  readonly status: OperationStatus;
  /** Derived from appliance binding + alias + description; always null when `refused` (one shape for every refusal). */
  readonly operationId: string | null;
  /** The operation's current contract, when one exists (null when `refused`). */
  readonly contractId: string | null;
  /** The outbox file (name only) the operator should review and sign now, when one is pending. */
  readonly pendingRequest: string | null;
  /**
   * `requested` only, and only then present: when this operation's earlier authorization request expired
   * unanswered (UTC ms) and the pending one was written in its place. A time only, never the file.
   */
  readonly earlierRequestExpiredAt?: number;
}

const REFUSED: AliasDescriptionChangeResult = Object.freeze({
  status: OperationStatus.REFUSED,
  operationId: null,
  contractId: null,
  pendingRequest: null,
});

/**
 * Every `refused` has one shape — no operation id, contract id or pending request — whichever gate refused
 * and whether the binding could be read at all (docs/DESIGN.md §6: `refused` never says which gate refused;
 * an id present for some gates and absent for others would say it). The ids are in the audit.
 */
export function changeResult(
  status: OperationStatus,
  operationId: string | null,
  contractId: string | null = null,
  pendingRequest: string | null = null,
  earlierRequestExpiredAt: number | null = null,
): AliasDescriptionChangeResult {
  if (status === OperationStatus.REFUSED) return REFUSED;
  return Object.freeze({
    status,
    operationId,
    contractId,
    pendingRequest,
    ...(earlierRequestExpiredAt === null ? {} : { earlierRequestExpiredAt }),
  });
}
