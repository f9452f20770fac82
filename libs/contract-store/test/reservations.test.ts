import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExecutorContractStore } from '../src/executor-entry.js';
import type { RecoveryContract, SqliteRecoveryContractStore } from '../src/index.js';
import { contractInput, errorOf, executing, hex, makeHarness, preparedConfirmed, rollingBack, verified } from './helpers.js';
import type { Harness } from './helpers.js';

// One test per row of the README reservation table. Each row uses its own target and then checks, besides
// holdsReservation(), whether a second contract of the same target can acquire EXECUTING.
let h: Harness;
let store: SqliteRecoveryContractStore;
let ex: ExecutorContractStore;
let nextTarget = 1000;

beforeAll(async () => {
  h = makeHarness();
  store = await h.open();
  ex = ExecutorContractStore.of(store);
});
afterAll(() => h.cleanup());

const seal = (c: RecoveryContract) => ({ verifiedTargetFingerprint: hex(0xf2), verifiedLifecycleLocator: c.lifecycle_locator });

/** Does a competing, confirmed contract of the same target get EXECUTING? (If yes, it is finished again.) */
function competitorAcquires(target: number): boolean {
  const other = preparedConfirmed(store, contractInput({ target }));
  try {
    const e = ex.beginExecution(other.contract_id, other.state_version);
    ex.markExecutionFailed(e.contract_id, e.state_version, 'TEST_CLEANUP');
    return true;
  } catch (error) {
    expect((error as { code: string }).code).toBe('TARGET_RESERVED');
    expect(store.load(other.contract_id).state).toBe('PREPARED');
    return false;
  }
}

function row(name: string, held: boolean, drive: (target: number) => RecoveryContract): void {
  it(`${name}: reservation ${held ? 'held' : 'not held'}`, () => {
    const target = (nextTarget += 1);
    const c = drive(target);
    expect(store.holdsReservation(c.contract_id)).toBe(held);
    expect(competitorAcquires(target)).toBe(!held);
  });
}

describe('reservation table', () => {
  row('PREPARED (never acquired)', false, (t) => preparedConfirmed(store, contractInput({ target: t })));
  row('PREPARED → EXPIRED', false, (t) => {
    const c = store.create(contractInput({ target: t, expires_at: h.clock.now + 1 }));
    h.clock.now += 1;
    store.expire();
    return store.load(c.contract_id);
  });
  row('PREPARED → EXECUTING acquires', true, (t) => executing(store, contractInput({ target: t })));
  row('EXECUTING → VERIFIED releases', false, (t) => verified(store, contractInput({ target: t })));
  row('EXECUTING → FAILED releases', false, (t) => {
    const c = executing(store, contractInput({ target: t }));
    return ex.markExecutionFailed(c.contract_id, c.state_version, 'PROVEN_NONE');
  });
  row('EXECUTING → RECONCILIATION keeps', true, (t) => {
    const c = executing(store, contractInput({ target: t }));
    return ex.markExecutionAmbiguous(c.contract_id, c.state_version, 'AMBIGUOUS');
  });
  row('VERIFIED → ROLLING_BACK re-acquires', true, (t) => rollingBack(store, contractInput({ target: t })));
  row('ROLLING_BACK → ROLLED_BACK releases', false, (t) => {
    const c = rollingBack(store, contractInput({ target: t }));
    return ex.markRollbackVerified(c.contract_id, c.state_version, seal(c));
  });
  row('ROLLING_BACK → ROLLBACK_FAILED keeps', true, (t) => {
    const c = rollingBack(store, contractInput({ target: t }));
    return ex.markRollbackFailed(c.contract_id, c.state_version, 'VERIFIED_FAILURE');
  });
  row('ROLLING_BACK → RECONCILIATION keeps', true, (t) => {
    const c = rollingBack(store, contractInput({ target: t }));
    return ex.markRollbackAmbiguous(c.contract_id, c.state_version, 'AMBIGUOUS');
  });
  row('RECONCILIATION → VERIFIED (forward applied) releases', false, (t) => {
    const c = executing(store, contractInput({ target: t }));
    const r = ex.markExecutionAmbiguous(c.contract_id, c.state_version, 'AMBIGUOUS');
    return store.resolveReconciliation(r.contract_id, h.authorities.resolution(r, 'FORWARD_APPLIED'));
  });
  row('RECONCILIATION → FAILED (forward not applied) releases', false, (t) => {
    const c = executing(store, contractInput({ target: t }));
    const r = ex.markExecutionAmbiguous(c.contract_id, c.state_version, 'AMBIGUOUS');
    return store.resolveReconciliation(r.contract_id, h.authorities.resolution(r, 'FORWARD_NOT_APPLIED'));
  });
  row('RECONCILIATION → ROLLED_BACK (rollback applied) releases', false, (t) => {
    const c = rollingBack(store, contractInput({ target: t }));
    const r = ex.markRollbackAmbiguous(c.contract_id, c.state_version, 'AMBIGUOUS');
    return store.resolveReconciliation(r.contract_id, h.authorities.resolution(r, 'ROLLBACK_APPLIED'));
  });
  row('RECONCILIATION → ROLLBACK_FAILED (rollback not applied) keeps', true, (t) => {
    const c = rollingBack(store, contractInput({ target: t }));
    const r = ex.markRollbackAmbiguous(c.contract_id, c.state_version, 'AMBIGUOUS');
    return store.resolveReconciliation(r.contract_id, h.authorities.resolution(r, 'ROLLBACK_NOT_APPLIED'));
  });
  row('ROLLBACK_FAILED + signed release from the reconciliation role releases', false, (t) => {
    const c = rollingBack(store, contractInput({ target: t }));
    const f = ex.markRollbackFailed(c.contract_id, c.state_version, 'VERIFIED_FAILURE');
    const released = store.releaseRollbackFailedReservation(f.contract_id, h.authorities.release(f));
    expect(released.state).toBe('ROLLBACK_FAILED');
    expect(released.reservation_release?.authority_key_id).toMatch(/^[0-9a-f]{64}$/);
    const audit = store.listAuditEvents({ contractId: f.contract_id });
    expect(audit.at(-1)).toMatchObject({ kind: 'reservation-release', outcome_class: 'RESERVATION_RELEASED' });
    return released;
  });
});

describe('reservation rules', () => {
  it('VERIFIED → ROLLING_BACK is refused (zero state change) while other work holds the target', () => {
    const target = (nextTarget += 1);
    const v = verified(store, contractInput({ target }));
    const other = executing(store, contractInput({ target }));
    expect(errorOf(() => ex.beginRollback(v.contract_id, v.state_version)).code).toBe('TARGET_RESERVED');
    expect(store.load(v.contract_id).state).toBe('VERIFIED');
    ex.markExecutionFailed(other.contract_id, other.state_version, 'PROVEN_NONE');
    expect(ex.beginRollback(v.contract_id, v.state_version).state).toBe('ROLLING_BACK');
  });

  it('a ROLLBACK_FAILED release needs the reconciliation role, the right contract and version', () => {
    const target = (nextTarget += 1);
    const c = rollingBack(store, contractInput({ target }));
    const f = ex.markRollbackFailed(c.contract_id, c.state_version, 'VERIFIED_FAILURE');
    expect(errorOf(() => store.releaseRollbackFailedReservation(f.contract_id, h.authorities.release(f, {}, 'confirmation'))).code).toBe(
      'WRONG_ROLE',
    );
    expect(
      errorOf(() => store.releaseRollbackFailedReservation(f.contract_id, h.authorities.release(f, { state_version: f.state_version - 1 })))
        .code,
    ).toBe('STALE_STATE_VERSION');
    expect(
      errorOf(() => store.releaseRollbackFailedReservation(f.contract_id, h.authorities.release(f, { operation_id: 'op-x' }))).code,
    ).toBe('EVIDENCE_MISMATCH');
    expect(
      errorOf(() => store.releaseRollbackFailedReservation(f.contract_id, h.authorities.release(f, { contract_id: 'ctr-x' }))).code,
    ).toBe('EVIDENCE_MISMATCH');
    expect(store.holdsReservation(f.contract_id)).toBe(true);
    const done = store.releaseRollbackFailedReservation(f.contract_id, h.authorities.release(f));
    expect(errorOf(() => store.releaseRollbackFailedReservation(done.contract_id, h.authorities.release(done))).code).toBe(
      'NOT_HOLDING_RESERVATION',
    );
  });

  it('a release of a contract that is not ROLLBACK_FAILED is refused', () => {
    const c = executing(store, contractInput({ target: (nextTarget += 1) }));
    expect(errorOf(() => store.releaseRollbackFailedReservation(c.contract_id, h.authorities.release(c))).code).toBe('WRONG_STATE');
  });
});
