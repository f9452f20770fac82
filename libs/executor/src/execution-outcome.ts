import type { PfTableObservation } from './filter-apply.js';
import type { ConfigHistoryRecord, RecoveryContract } from '@pfsense-mcp/contract-store';
import type { RecoveryState } from '@pfsense-mcp/state-machine';
import type { ConfigHistoryEvidence } from './config-history.js';
import type { EffectKnowledge } from './effect-knowledge.js';

/**
 * What one `execute` or `rollback` call did, once it held the target reservation (frozen). Every such call
 * ends in exactly one store transition, recorded in the chained audit log with `outcomeClass`.
 *
 * - `state`: the contract's state after the call — execute: VERIFIED, FAILED or RECONCILIATION; rollback:
 *   ROLLED_BACK, ROLLBACK_FAILED or RECONCILIATION.
 * - `effect`: what the executor knows about the write: PROVEN_NONE also covers the refusals after the
 *   reservation that never reached the send (drift, locator change, unresolved target, bad request model).
 * - `outcomeClass`: the sanitized class in the audit row (e.g. VERIFIED_SUCCESS, TARGET_FINGERPRINT_CHANGED,
 *   TIMEOUT_AFTER_WRITE); value-free.
 * - `sends`: how many times `WriteApiClient.send` was called in this call — 0 or 1, never more.
 * - `configHistory`: the value-free config-history corroboration after a send that may have applied (null
 *   when nothing was sent, or the send proved nothing applied); its digest is the audit row's evidence digest.
 * - `contract`: the contract exactly as that final transition committed it (authenticated, frozen): the
 *   caller reports from it, never from a reload (docs/DESIGN.md §6).
 */
export interface ExecutionOutcome {
  readonly operation: 'execute' | 'rollback';
  readonly contractId: string;
  readonly state: RecoveryState;
  readonly stateVersion: number;
  readonly effect: EffectKnowledge;
  readonly outcomeClass: string;
  readonly sends: 0 | 1;
  readonly configHistory: ConfigHistoryEvidence | null;
  readonly contract: RecoveryContract;
}

/**
 * A read-only observation of a RECONCILIATION contract's target (frozen), for the owner's signed resolution.
 * It is a fresh authoritative read; nothing was sent and the contract did not change.
 */
export interface ReconciliationObservation {
  readonly contractId: string;
  readonly operationId: string;
  /** Where the contract came from: EXECUTING (forward) or ROLLING_BACK (rollback). */
  readonly origin: 'EXECUTING' | 'ROLLING_BACK';
  /** The contract's state version now; a resolution must name it. */
  readonly stateVersion: number;
  /** Fingerprint digest of the fresh read (64 lowercase hex). */
  readonly observedFingerprint: string;
  /** The pfrest id seen on the fresh read. */
  readonly observedLifecycleLocator: number;
  /**
   * The adapter's snapshot (semantic fields, no locator) of that same read: what the owner is shown as the
   * observed state, so the request carries exactly what was fingerprinted (no second read). In-process only.
   */
  readonly observedSnapshot: unknown;
  /** Whether the fresh locator equals the contract's lifecycle locator (a resolution needs it equal). */
  readonly locatorMatches: boolean;
  /** Whether the fresh fingerprint equals the contract's pre-forward fingerprint (the forward did not apply, or was undone). */
  readonly matchesPreForwardFingerprint: boolean;
  /** Whether it equals the sealed post-forward fingerprint (null when none was sealed: forward origin). */
  readonly matchesVerifiedFingerprint: boolean | null;
  /**
   * The config-history corroboration the contract recorded with the send of its origin (forward or rollback),
   * as stored; null when none was recorded (e.g. a send interrupted by a crash). It never decides anything.
   */
  readonly configHistory: ConfigHistoryRecord | null;
  /**
   * For a write that applies the filter: the alias's pf table read now (what the operator compares with the lists
   * before and after the change); null for a write that does not apply (the description).
   */
  readonly observedPfTable: PfTableObservation | null;
}

/** The frozen outcome of one execute / rollback call, from the contract its final transition returned. */
export function executionOutcome(
  operation: 'execute' | 'rollback',
  contract: RecoveryContract,
  effect: EffectKnowledge,
  outcomeClass: string,
  sends: 0 | 1,
  configHistory: ConfigHistoryEvidence | null = null,
): ExecutionOutcome {
  return Object.freeze({
    operation,
    contractId: contract.contract_id,
    state: contract.state,
    stateVersion: contract.state_version,
    effect,
    outcomeClass,
    sends,
    configHistory,
    contract,
  });
}
