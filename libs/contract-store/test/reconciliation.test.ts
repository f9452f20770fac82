import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExecutorContractStore } from '../src/executor-entry.js';
import type { RecoveryContract, SqliteRecoveryContractStore } from '../src/index.js';
import { contractInput, errorOf, executing, hex, makeHarness, rollingBack } from './helpers.js';
import type { Harness } from './helpers.js';

let h: Harness;
let store: SqliteRecoveryContractStore;
let ex: ExecutorContractStore;
let target = 5000;

beforeAll(async () => {
  h = makeHarness();
  store = await h.open();
  ex = ExecutorContractStore.of(store);
});
afterAll(() => h.cleanup());

function forwardReconciliation(): RecoveryContract {
  const c = executing(store, contractInput({ target: (target += 1) }));
  return ex.markExecutionAmbiguous(c.contract_id, c.state_version, 'AMBIGUOUS');
}

function rollbackReconciliation(): RecoveryContract {
  const c = rollingBack(store, contractInput({ target: (target += 1) }));
  return ex.markRollbackAmbiguous(c.contract_id, c.state_version, 'AMBIGUOUS');
}

describe('resolveReconciliation', () => {
  it('forward APPLIED → VERIFIED and seals the signed fingerprint and locator', () => {
    const r = forwardReconciliation();
    expect(r.reconciliation).toMatchObject({ origin: 'EXECUTING', outcome_class: 'AMBIGUOUS' });
    const v = store.resolveReconciliation(
      r.contract_id,
      h.authorities.resolution(r, 'FORWARD_APPLIED', { observed_fingerprint: hex(0x777) }),
    );
    expect(v.state).toBe('VERIFIED');
    expect(v.verified_target_fingerprint).toBe(hex(0x777));
    expect(v.verified_lifecycle_locator).toBe(7);
    expect(v.resolution).toMatchObject({ outcome: 'FORWARD_APPLIED' });
    const last = store.listAuditEvents({ contractId: v.contract_id }).at(-1);
    expect(last).toMatchObject({ event: 'RESOLVE_FORWARD_APPLIED', from_state: 'RECONCILIATION', to_state: 'VERIFIED' });
    expect(last?.evidence_digest).toBe(v.resolution?.resolution_digest);
    // and the rollback that follows compares against that sealed fingerprint
    expect(ex.beginRollback(v.contract_id, v.state_version).state).toBe('ROLLING_BACK');
  });

  it('forward NOT_APPLIED → FAILED without sealing anything', () => {
    const r = forwardReconciliation();
    const f = store.resolveReconciliation(r.contract_id, h.authorities.resolution(r, 'FORWARD_NOT_APPLIED'));
    expect(f.state).toBe('FAILED');
    expect(f.verified_target_fingerprint).toBeNull();
  });

  it('rollback APPLIED → ROLLED_BACK and never seals a forward fingerprint', () => {
    const r = rollbackReconciliation();
    const before = r.verified_target_fingerprint;
    const done = store.resolveReconciliation(
      r.contract_id,
      h.authorities.resolution(r, 'ROLLBACK_APPLIED', { observed_fingerprint: hex(0x999) }),
    );
    expect(done.state).toBe('ROLLED_BACK');
    expect(done.verified_target_fingerprint).toBe(before);
    expect(done.rollback_verified_target_fingerprint).toBe(hex(0x999));
  });

  it('rollback NOT_APPLIED → ROLLBACK_FAILED', () => {
    const r = rollbackReconciliation();
    expect(store.resolveReconciliation(r.contract_id, h.authorities.resolution(r, 'ROLLBACK_NOT_APPLIED')).state).toBe('ROLLBACK_FAILED');
  });

  const refusals: [string, (r: RecoveryContract) => unknown, string][] = [
    [
      'another contract id',
      (r) => h.authorities.resolution(r, 'FORWARD_NOT_APPLIED', { contract_id: 'ctr-someone-else' }),
      'EVIDENCE_MISMATCH',
    ],
    ['another operation id', (r) => h.authorities.resolution(r, 'FORWARD_NOT_APPLIED', { operation_id: 'op-else' }), 'EVIDENCE_MISMATCH'],
    [
      'a stale state_version',
      (r) => h.authorities.resolution(r, 'FORWARD_NOT_APPLIED', { state_version: r.state_version - 1 }),
      'STALE_STATE_VERSION',
    ],
    [
      'a future state_version',
      (r) => h.authorities.resolution(r, 'FORWARD_NOT_APPLIED', { state_version: r.state_version + 1 }),
      'STALE_STATE_VERSION',
    ],
    ['the wrong origin', (r) => h.authorities.resolution(r, 'FORWARD_NOT_APPLIED', { origin: 'ROLLING_BACK' }), 'EVIDENCE_MISMATCH'],
    ['a rollback outcome for a forward origin', (r) => h.authorities.resolution(r, 'ROLLBACK_APPLIED'), 'EVIDENCE_MISMATCH'],
    [
      'another lifecycle locator',
      (r) => h.authorities.resolution(r, 'FORWARD_APPLIED', { observed_lifecycle_locator: 8 }),
      'EVIDENCE_MISMATCH',
    ],
    [
      'forward APPLIED without a fingerprint',
      (r) => h.authorities.resolution(r, 'FORWARD_APPLIED', { observed_fingerprint: null }),
      'EVIDENCE_MISMATCH',
    ],
    ['a signature by the confirmation role', (r) => h.authorities.resolution(r, 'FORWARD_APPLIED', {}, 'confirmation'), 'WRONG_ROLE'],
    [
      'a tampered payload',
      (r) => {
        const s = h.authorities.resolution(r, 'FORWARD_NOT_APPLIED');
        return { ...s, payload: { ...s.payload, outcome: 'FORWARD_APPLIED', observed_fingerprint: hex(1) } };
      },
      'BAD_SIGNATURE',
    ],
  ];
  for (const [name, make, code] of refusals) {
    it(`refuses ${name} and changes nothing`, () => {
      const r = forwardReconciliation();
      const audit = store.listAuditEvents({ limit: 10_000 }).length;
      expect(errorOf(() => store.resolveReconciliation(r.contract_id, make(r))).code).toBe(code);
      expect(store.load(r.contract_id)).toEqual(r);
      expect(store.listAuditEvents({ limit: 10_000 })).toHaveLength(audit);
    });
  }

  it('refuses a rollback-origin resolution carrying a forward outcome', () => {
    const r = rollbackReconciliation();
    expect(errorOf(() => store.resolveReconciliation(r.contract_id, h.authorities.resolution(r, 'FORWARD_APPLIED'))).code).toBe(
      'EVIDENCE_MISMATCH',
    );
    expect(store.load(r.contract_id).state).toBe('RECONCILIATION');
  });

  it('refuses a verifier that reports a role other than reconciliation', async () => {
    const other = await h.open({ reconciliationVerifier: h.authorities.reconciliationVerifier('confirmation') });
    const r = forwardReconciliation();
    expect(errorOf(() => other.resolveReconciliation(r.contract_id, h.authorities.resolution(r, 'FORWARD_NOT_APPLIED'))).code).toBe(
      'EVIDENCE_MISMATCH',
    );
    expect(store.load(r.contract_id).state).toBe('RECONCILIATION');
  });

  it('a resolution cannot be replayed (the version moved on)', () => {
    const r = forwardReconciliation();
    const signed = h.authorities.resolution(r, 'FORWARD_NOT_APPLIED');
    store.resolveReconciliation(r.contract_id, signed);
    expect(errorOf(() => store.resolveReconciliation(r.contract_id, signed)).code).toBe('WRONG_STATE');
  });

  it('RECONCILIATION is never left by an execution transition', () => {
    const r = forwardReconciliation();
    expect(
      errorOf(() =>
        ex.markExecutionVerified(r.contract_id, r.state_version, { verifiedTargetFingerprint: hex(1), verifiedLifecycleLocator: 7 }),
      ).code,
    ).toBe('ILLEGAL_TRANSITION');
    expect(errorOf(() => ex.beginRollback(r.contract_id, r.state_version)).code).toBe('ILLEGAL_TRANSITION');
  });
});
