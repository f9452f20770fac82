import { deepFreeze } from '@pfsense-mcp/foundation';
import { RESERVATION_HOLDING_STATES, RecoveryEvent, TERMINAL_STATES, nextState } from '@pfsense-mcp/state-machine';
import { auditContract } from '../audit/append-audit.js';
import type { AuditExtras } from '../audit/append-audit.js';
import { configHistoryPatch } from '../model/config-history-record.js';
import type { ConfigHistoryRecord } from '../model/config-history-record.js';
import { writeContract } from '../model/contract-rows.js';
import { OwnerMismatchError, StaleStateVersionError } from '../store/contract-store-error.js';
import { sameOwner } from '../store/process-owner.js';
import type { RecoveryContract } from '../model/recovery-contract.js';
import { processOwnerOf } from '../store/store-state.js';
import type { StoreState } from '../store/store-state.js';
import { acquireReservation, releaseReservationRow } from './target-reservations.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The record fields a transition may change besides its state, version and times. */
export type ContractPatch = Partial<
  Mutable<
    Pick<
      RecoveryContract,
      | 'owner'
      | 'verified_target_fingerprint'
      | 'verified_lifecycle_locator'
      | 'rollback_verified_target_fingerprint'
      | 'rollback_verified_lifecycle_locator'
      | 'reconciliation'
      | 'resolution'
      | 'last_outcome_class'
      | 'execution_config_history'
      | 'rollback_config_history'
    >
  >
>;

/** The config-history record a send-ending transition keeps, under the forward or the rollback field. */
export function historyPatch(
  fn: string,
  event: RecoveryEvent,
  configHistory: ConfigHistoryRecord | undefined,
): ReturnType<typeof configHistoryPatch> {
  const rollback =
    event === RecoveryEvent.ROLLBACK_VERIFIED || event === RecoveryEvent.ROLLBACK_FAILED || event === RecoveryEvent.ROLLBACK_AMBIGUOUS;
  return configHistoryPatch(fn, rollback ? 'rollback' : 'execution', configHistory);
}

/**
 * The one way a state changes: CAS on state_version, the state-machine lib decides the next state,
 * the reservation follows the state (acquired entering a holding state, released leaving one), the
 * row is rewritten with a new MAC, one audit row is appended, and the rate windows are updated —
 * all inside the caller's transaction.
 */
export function transition(
  s: StoreState,
  current: RecoveryContract,
  expectedVersion: number,
  event: RecoveryEvent,
  patch: ContractPatch,
  extras: AuditExtras,
  now: number,
): RecoveryContract {
  if (current.state_version !== expectedVersion)
    throw new StaleStateVersionError(current.contract_id, expectedVersion, current.state_version);
  const to = nextState(current.state, event);
  const terminal = TERMINAL_STATES.has(to);
  const next = deepFreeze({
    ...current,
    ...patch,
    state: to,
    state_version: current.state_version + 1,
    updated_at: now,
    terminal_at: terminal ? now : current.terminal_at,
    last_outcome_class: extras.outcomeClass,
  }) as RecoveryContract;
  const held = RESERVATION_HOLDING_STATES.has(current.state);
  const holds = RESERVATION_HOLDING_STATES.has(to);
  if (!held && holds) acquireReservation(s, next, now);
  if (held && !holds) releaseReservationRow(s, next);
  writeContract(s, next, current);
  auditContract(s, next, 'transition', event, current.state, now, extras);
  s.rate.afterTransition(current, next, now);
  return next;
}

/** Execution transitions only for the process recorded as the contract's owner. */
export function requireOwner(s: StoreState, contract: RecoveryContract): void {
  const me = processOwnerOf(s);
  if (contract.owner === null || !sameOwner(contract.owner, me)) throw new OwnerMismatchError(contract.contract_id);
}
