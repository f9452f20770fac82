import { assertObject } from '@pfsense-mcp/foundation';
import { nextState } from '@pfsense-mcp/state-machine';
import type { RecoveryEvent } from '@pfsense-mcp/state-machine';
import type { AuditExtras } from '../audit/append-audit.js';
import type { ConfigHistoryRecord } from '../model/config-history-record.js';
import { loadIn } from '../model/contract-rows.js';
import { historyPatch, requireOwner, transition } from './contract-transition.js';
import type { ContractPatch } from './contract-transition.js';
import { BindingMismatchError, StaleStateVersionError } from '../store/contract-store-error.js';
import { hex64Schema, locatorSchema, outcomeClassSchema } from '../model/recovery-contract.js';
import type { RecoveryContract } from '../model/recovery-contract.js';
import { checkAgainstAnchor } from '../anchor/store-anchor.js';
import { nowOf, processOwnerOf } from '../store/store-state.js';
import type { StoreState } from '../store/store-state.js';
import { storeWrite } from '../store/store-write.js';
import type { VerifiedSeal } from '../integrity/verified-seal.js';

/**
 * PREPARED → EXECUTING or VERIFIED → ROLLING_BACK: the anchor checked inside the write, the CAS and the
 * state-machine step checked first, then `precondition` (the forward path's confirmation and expiry), the
 * in-flight rate checkpoint, `lastStep` (a signed rollback's one-time consumption; its evidence goes into the
 * audit row), and the transition that acquires the reservation and records this process as owner.
 */
export function beginInFlight(
  s: StoreState,
  operation: string,
  contractId: string,
  expectedVersion: number,
  event: typeof RecoveryEvent.BEGIN_EXECUTION | typeof RecoveryEvent.BEGIN_ROLLBACK,
  precondition: (c: RecoveryContract, now: number) => void,
  lastStep?: () => Omit<AuditExtras, 'outcomeClass'>,
): RecoveryContract {
  const owner = processOwnerOf(s);
  return storeWrite(s, operation, () => {
    checkAgainstAnchor(s);
    const c = loadIn(s, contractId);
    const now = nowOf(s);
    if (c.state_version !== expectedVersion) throw new StaleStateVersionError(contractId, expectedVersion, c.state_version);
    nextState(c.state, event);
    precondition(c, now);
    s.rate.beforeAcquire(c, now);
    // After every check that can refuse (a one-time consumption here is never followed by a refusal).
    const evidence = lastStep === undefined ? {} : lastStep();
    return transition(s, c, expectedVersion, event, { owner }, { outcomeClass: null, ...evidence }, now);
  });
}

/** Which record fields a verified send seals: the forward or the rollback fingerprint and locator. */
export interface SealColumns {
  readonly fingerprint: 'verified_target_fingerprint' | 'rollback_verified_target_fingerprint';
  readonly locator: 'verified_lifecycle_locator' | 'rollback_verified_lifecycle_locator';
}

/**
 * EXECUTING → VERIFIED or ROLLING_BACK → ROLLED_BACK: only the recorded owner, only at the contract's own
 * locator, sealing the verified fingerprint and locator atomically with the transition.
 */
export function markVerified(
  s: StoreState,
  fn: string,
  contractId: string,
  expectedVersion: number,
  seal: VerifiedSeal,
  event: typeof RecoveryEvent.EXECUTION_VERIFIED | typeof RecoveryEvent.ROLLBACK_VERIFIED,
  columns: SealColumns,
  configHistory?: ConfigHistoryRecord,
): RecoveryContract {
  const history = historyPatch(fn, event, configHistory);
  assertObject(seal, `${fn}: "seal"`);
  const fingerprint = hex64Schema.safeParse(seal.verifiedTargetFingerprint);
  if (!fingerprint.success) throw new TypeError(`${fn}: "verifiedTargetFingerprint" must be 64 lowercase hex digits`);
  const locator = locatorSchema.safeParse(seal.verifiedLifecycleLocator);
  if (!locator.success) throw new TypeError(`${fn}: "verifiedLifecycleLocator" must be a non-negative integer`);
  return storeWrite(s, fn, () => {
    const c = loadIn(s, contractId);
    const now = nowOf(s);
    nextState(c.state, event);
    requireOwner(s, c);
    if (locator.data !== c.lifecycle_locator) throw new BindingMismatchError('lifecycle_locator');
    return transition(
      s,
      c,
      expectedVersion,
      event,
      {
        owner: null,
        [columns.fingerprint]: fingerprint.data,
        [columns.locator]: locator.data,
        ...history.patch,
      },
      { outcomeClass: 'VERIFIED_SUCCESS', evidenceDigest: history.evidenceDigest },
      now,
    );
  });
}

/**
 * A send that did not verify: FAILED / ROLLBACK_FAILED (reservation per the state machine) or, with a
 * `reconciliationOrigin`, RECONCILIATION. Only the recorded owner; the owner is cleared.
 */
export function endInFlight(
  s: StoreState,
  operation: string,
  contractId: string,
  expectedVersion: number,
  event: RecoveryEvent,
  outcomeClass: string,
  reconciliationOrigin: 'EXECUTING' | 'ROLLING_BACK' | null,
  configHistory?: ConfigHistoryRecord,
): RecoveryContract {
  if (!outcomeClassSchema.safeParse(outcomeClass).success)
    throw new TypeError(`${operation}: "outcomeClass" must match [A-Z][A-Z0-9_]{0,63}`);
  const history = historyPatch(operation, event, configHistory);
  return storeWrite(s, operation, () => {
    const c = loadIn(s, contractId);
    const now = nowOf(s);
    nextState(c.state, event);
    requireOwner(s, c);
    const patch: ContractPatch = { owner: null, ...history.patch };
    if (reconciliationOrigin !== null)
      patch.reconciliation = { origin: reconciliationOrigin, entered_at: now, outcome_class: outcomeClass };
    return transition(s, c, expectedVersion, event, patch, { outcomeClass, evidenceDigest: history.evidenceDigest }, now);
  });
}
