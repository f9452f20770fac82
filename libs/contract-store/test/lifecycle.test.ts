import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RECOVERY_STATES, RecoveryState } from '@pfsense-mcp/state-machine';
import type { RecoveryState as State } from '@pfsense-mcp/state-machine';
import { ExecutorContractStore } from '../src/executor-entry.js';
import { verifyBindings } from '../src/index.js';
import type { RecoveryContract, SqliteRecoveryContractStore } from '../src/index.js';
import { HOUR, T0, contractInput, errorOf, executing, hex, makeHarness, preparedConfirmed, rollingBack, verified } from './helpers.js';
import type { Harness } from './helpers.js';

let h: Harness;
let store: SqliteRecoveryContractStore;
let ex: ExecutorContractStore;

function perTest(): void {
  beforeEach(async () => {
    h = makeHarness();
    store = await h.open();
    ex = ExecutorContractStore.of(store);
  });
  afterEach(() => h.cleanup());
}

const seal = (c: RecoveryContract) => ({ verifiedTargetFingerprint: hex(0xf2), verifiedLifecycleLocator: c.lifecycle_locator });

describe('full lifecycle', () => {
  perTest();
  it('create → PREPARED → confirm → EXECUTING → VERIFIED → ROLLING_BACK → ROLLED_BACK, one audit row per change', () => {
    const created = store.create(contractInput());
    expect(created.state).toBe('PREPARING');
    expect(created.state_version).toBe(1);
    const prepared = store.markPrepared(created.contract_id, 1);
    const confirmed = store.confirm(prepared.contract_id, { accept: true });
    expect(confirmed.confirmation?.authority_key_id).toBe(hex(0xa11));
    const exec = ex.beginExecution(confirmed.contract_id, confirmed.state_version);
    expect(exec.state).toBe('EXECUTING');
    expect(exec.owner?.pid).toBe(process.pid);
    expect(store.holdsReservation(exec.contract_id)).toBe(true);
    const ver = ex.markExecutionVerified(exec.contract_id, exec.state_version, seal(exec));
    expect(ver.state).toBe('VERIFIED');
    expect(ver.verified_target_fingerprint).toBe(hex(0xf2));
    expect(ver.verified_lifecycle_locator).toBe(7);
    expect(ver.target_fingerprint).toBe(hex(0xf1)); // pre-state never overwritten
    expect(ver.owner).toBeNull();
    expect(store.holdsReservation(ver.contract_id)).toBe(false);
    const rb = ex.beginRollback(ver.contract_id, ver.state_version);
    expect(store.holdsReservation(rb.contract_id)).toBe(true);
    const done = ex.markRollbackVerified(rb.contract_id, rb.state_version, {
      verifiedTargetFingerprint: hex(0xf1),
      verifiedLifecycleLocator: 7,
    });
    expect(done.state).toBe('ROLLED_BACK');
    expect(done.rollback_verified_target_fingerprint).toBe(hex(0xf1));
    expect(done.verified_target_fingerprint).toBe(hex(0xf2));
    expect(store.holdsReservation(done.contract_id)).toBe(false);

    const events = store.listAuditEvents({ contractId: done.contract_id });
    expect(events.map((e) => [e.kind, e.from_state, e.to_state])).toEqual([
      ['create', null, 'PREPARING'],
      ['transition', 'PREPARING', 'PREPARED'],
      ['confirmation', 'PREPARED', 'PREPARED'],
      ['transition', 'PREPARED', 'EXECUTING'],
      ['transition', 'EXECUTING', 'VERIFIED'],
      ['transition', 'VERIFIED', 'ROLLING_BACK'],
      ['transition', 'ROLLING_BACK', 'ROLLED_BACK'],
    ]);
    expect(store.verifyAuditChain()).toEqual({ ok: true });
    expect(store.load(done.contract_id)).toEqual(done);
  });

  it('keeps the pinned rollback plan version (docs/DESIGN.md §5) and refuses free text there', () => {
    const c = store.create(contractInput({ rollback_plan_version: 'firewall-alias-description-rollback/v1' }));
    expect(store.load(c.contract_id).rollback_plan_version).toBe('firewall-alias-description-rollback/v1');
    for (const bad of ['Free text', '/v1', 'a//b', 'x'.repeat(129), 'A/v1']) {
      expect(() => store.create(contractInput({ rollback_plan_version: bad }))).toThrow();
    }
  });

  it('load returns a deep-frozen contract', () => {
    const c = store.create(contractInput());
    const loaded = store.load(c.contract_id);
    expect(Object.isFrozen(loaded)).toBe(true);
    expect(Object.isFrozen(loaded.provenance)).toBe(true);
  });

  it('list filters by state and operation id and paginates by contract id', () => {
    const a = store.create(contractInput({ target: 1 }));
    const b = preparedConfirmed(store, contractInput({ target: 2 }));
    expect(store.list({ states: ['PREPARING'] }).map((c) => c.contract_id)).toEqual([a.contract_id]);
    expect(store.list({ operationId: b.operation_id }).map((c) => c.contract_id)).toEqual([b.contract_id]);
    const all = store.list({ limit: 1 });
    expect(all).toHaveLength(1);
    expect(store.list({ afterContractId: all[0]!.contract_id })).toHaveLength(1);
  });

  it('list filters by target identity digest (with state and paging) and refuses anything but a digest there', () => {
    const a = store.create(contractInput({ target: 1 }));
    const b = preparedConfirmed(store, contractInput({ target: 2 }));
    const a2 = store.create(contractInput({ target: 1 }));
    const onA = [a.contract_id, a2.contract_id].sort();
    expect(store.list({ targetIdentityDigest: a.target_identity_digest }).map((c) => c.contract_id)).toEqual(onA);
    expect(store.list({ targetIdentityDigest: b.target_identity_digest }).map((c) => c.contract_id)).toEqual([b.contract_id]);
    expect(b.state).not.toBe(a.state);
    expect(store.list({ targetIdentityDigest: a.target_identity_digest, states: [b.state] })).toEqual([]);
    expect(store.list({ targetIdentityDigest: b.target_identity_digest, states: [b.state] })).toHaveLength(1);
    expect(store.list({ targetIdentityDigest: a.target_identity_digest, afterContractId: onA[0] }).map((c) => c.contract_id)).toEqual([
      onA[1],
    ]);
    expect(store.list({ targetIdentityDigest: 'f'.repeat(64) })).toEqual([]);
    for (const bad of ['', 'F'.repeat(64), 'x'.repeat(64), `${'a'.repeat(64)}' OR '1'='1`]) {
      expect(() => store.list({ targetIdentityDigest: bad })).toThrow(TypeError);
    }
  });
});

describe('CAS and preconditions', () => {
  perTest();
  it('a stale state_version is refused and changes nothing', () => {
    const c = store.create(contractInput());
    store.markPrepared(c.contract_id, 1);
    expect(errorOf(() => store.markPrepared(c.contract_id, 1)).code).toBe('STALE_STATE_VERSION');
    const p = preparedConfirmed(store);
    expect(errorOf(() => ex.beginExecution(p.contract_id, p.state_version - 1)).code).toBe('STALE_STATE_VERSION');
    expect(store.load(p.contract_id).state).toBe('PREPARED');
  });

  it('EXECUTING needs a confirmation; confirmation is accepted once, only while PREPARED and unexpired', () => {
    const c = store.create(contractInput());
    expect(errorOf(() => store.confirm(c.contract_id, { accept: true })).code).toBe('WRONG_STATE');
    const p = store.markPrepared(c.contract_id, 1);
    expect(errorOf(() => ex.beginExecution(p.contract_id, p.state_version)).code).toBe('NOT_CONFIRMED');
    expect(errorOf(() => store.confirm(p.contract_id, { accept: false })).message).toBe('confirmation refused');
    expect(store.load(p.contract_id).confirmation).toBeNull();
    expect(errorOf(() => store.confirm(p.contract_id, { accept: true, contractId: 'ctr-other' })).code).toBe('EVIDENCE_MISMATCH');
    const conf = store.confirm(p.contract_id, { accept: true });
    expect(errorOf(() => store.confirm(p.contract_id, { accept: true })).code).toBe('ALREADY_CONFIRMED');
    h.clock.now = conf.confirmation!.expires_at;
    expect(errorOf(() => ex.beginExecution(conf.contract_id, conf.state_version)).code).toBe('CONFIRMATION_EXPIRED');
  });

  it('a store without a confirmation verifier refuses every confirmation', async () => {
    const bare = await h.open({ confirmationVerifier: undefined });
    const c = bare.create(contractInput());
    const p = bare.markPrepared(c.contract_id, 1);
    expect(errorOf(() => bare.confirm(p.contract_id, { accept: true })).code).toBe('VERIFIER_MISSING');
  });

  it('markExecutionVerified refuses a locator other than the contract lifecycle locator', () => {
    const c = executing(store);
    expect(
      errorOf(() =>
        ex.markExecutionVerified(c.contract_id, c.state_version, { verifiedTargetFingerprint: hex(2), verifiedLifecycleLocator: 8 }),
      ).code,
    ).toBe('BINDING_MISMATCH');
    expect(store.load(c.contract_id).state).toBe('EXECUTING');
  });

  it('duplicate authorization or open operation is refused', () => {
    const input = contractInput();
    store.create(input);
    expect(errorOf(() => store.create({ ...input, operation_id: 'op-other' })).code).toBe('DUPLICATE_AUTHORIZATION');
    expect(errorOf(() => store.create({ ...contractInput(), operation_id: input.operation_id })).code).toBe('DUPLICATE_OPERATION');
  });

  it('invalid input is refused naming the field, never the value', () => {
    const e = errorOf(() => store.create({ ...contractInput(), target_identity_digest: 'NOT-HEX-secretish' }));
    expect(e.name).toBe('TypeError');
    expect(e.message).toContain('target_identity_digest');
    expect(e.message).not.toContain('secretish');
  });
});

describe('expiry', () => {
  perTest();
  it('expires PREPARING and PREPARED contracts past their expiry, nothing else', () => {
    const a = store.create(contractInput({ target: 1 }));
    const b = preparedConfirmed(store, contractInput({ target: 2 }));
    const c = executing(store, contractInput({ target: 3 }));
    const d = verified(store, contractInput({ target: 4 }));
    h.clock.now = T0 + HOUR;
    expect([...store.expire()].sort()).toEqual([a.contract_id, b.contract_id].sort());
    expect(store.load(a.contract_id).state).toBe('EXPIRED');
    expect(store.load(b.contract_id).state).toBe('EXPIRED');
    expect(store.load(c.contract_id).state).toBe('EXECUTING');
    expect(store.load(d.contract_id).state).toBe('VERIFIED');
  });

  it('expiry cannot race an acquired execution: once EXECUTING, expire() leaves it; once expired, execution is refused', () => {
    const p = preparedConfirmed(store, contractInput({ target: 1 }));
    const e = ex.beginExecution(p.contract_id, p.state_version);
    h.clock.now = T0 + 2 * HOUR;
    expect(store.expire()).toEqual([]);
    expect(store.load(e.contract_id).state).toBe('EXECUTING');

    h.clock.now = T0;
    const q = preparedConfirmed(store, contractInput({ target: 2, expires_at: T0 + 1000 }));
    h.clock.now = T0 + 1000;
    expect(errorOf(() => ex.beginExecution(q.contract_id, q.state_version)).code).toBe('CONTRACT_EXPIRED');
    expect(store.expire()).toEqual([q.contract_id]);
    expect(errorOf(() => ex.beginExecution(q.contract_id, q.state_version + 1)).code).toBe('ILLEGAL_TRANSITION');
  });
});

/** Drives a fresh contract into `state` through legal operations only. */
function reach(state: State, target: number): RecoveryContract {
  const input = contractInput({ target });
  switch (state) {
    case 'PREPARING':
      return store.create(input);
    case 'PREPARED':
      return preparedConfirmed(store, input);
    case 'EXECUTING':
      return executing(store, input);
    case 'VERIFIED':
      return verified(store, input);
    case 'ROLLING_BACK':
      return rollingBack(store, input);
    case 'ROLLED_BACK': {
      const c = rollingBack(store, input);
      return ex.markRollbackVerified(c.contract_id, c.state_version, seal(c));
    }
    case 'FAILED': {
      const c = executing(store, input);
      return ex.markExecutionFailed(c.contract_id, c.state_version, 'PROVEN_NONE');
    }
    case 'ROLLBACK_FAILED': {
      const c = rollingBack(store, input);
      return ex.markRollbackFailed(c.contract_id, c.state_version, 'VERIFIED_FAILURE');
    }
    case 'RECONCILIATION': {
      const c = executing(store, input);
      return ex.markExecutionAmbiguous(c.contract_id, c.state_version, 'AMBIGUOUS');
    }
    case 'EXPIRED': {
      const c = store.create({ ...input, expires_at: h.clock.now + 1 });
      h.clock.now += 1;
      store.expire();
      return store.load(c.contract_id);
    }
  }
}

type Op = (c: RecoveryContract) => unknown;
const OPS: Record<string, { legalFrom: readonly State[]; run: Op }> = {
  markPrepared: { legalFrom: ['PREPARING'], run: (c) => store.markPrepared(c.contract_id, c.state_version) },
  beginExecution: { legalFrom: ['PREPARED'], run: (c) => ex.beginExecution(c.contract_id, c.state_version) },
  markExecutionVerified: { legalFrom: ['EXECUTING'], run: (c) => ex.markExecutionVerified(c.contract_id, c.state_version, seal(c)) },
  markExecutionFailed: { legalFrom: ['EXECUTING'], run: (c) => ex.markExecutionFailed(c.contract_id, c.state_version, 'PROVEN_NONE') },
  markExecutionAmbiguous: { legalFrom: ['EXECUTING'], run: (c) => ex.markExecutionAmbiguous(c.contract_id, c.state_version, 'AMBIGUOUS') },
  beginRollback: { legalFrom: ['VERIFIED'], run: (c) => ex.beginRollback(c.contract_id, c.state_version) },
  markRollbackVerified: { legalFrom: ['ROLLING_BACK'], run: (c) => ex.markRollbackVerified(c.contract_id, c.state_version, seal(c)) },
  markRollbackFailed: {
    legalFrom: ['ROLLING_BACK'],
    run: (c) => ex.markRollbackFailed(c.contract_id, c.state_version, 'VERIFIED_FAILURE'),
  },
  markRollbackAmbiguous: { legalFrom: ['ROLLING_BACK'], run: (c) => ex.markRollbackAmbiguous(c.contract_id, c.state_version, 'AMBIGUOUS') },
  resolveForwardNotApplied: {
    legalFrom: ['RECONCILIATION'],
    run: (c) => store.resolveReconciliation(c.contract_id, h.authorities.resolution(c, 'FORWARD_NOT_APPLIED')),
  },
};

describe('every illegal transition is refused without a state change', () => {
  // One contract per state (refusals change nothing, so every refused op can use the same one).
  const byState = new Map<State, RecoveryContract>();
  let shared: Harness;
  beforeAll(async () => {
    shared = makeHarness();
    store = await shared.open();
    ex = ExecutorContractStore.of(store);
    h = shared;
    let target = 100;
    for (const state of RECOVERY_STATES) byState.set(state, reach(state, (target += 1)));
  });
  afterAll(() => shared.cleanup());

  for (const state of RECOVERY_STATES) {
    for (const [name, op] of Object.entries(OPS)) {
      if (op.legalFrom.includes(state)) continue;
      it(`${name} from ${state}`, () => {
        ex = ExecutorContractStore.of(store);
        const c = byState.get(state)!;
        const before = store.listAuditEvents({ limit: 10_000 }).length;
        const e = errorOf(() => op.run(c));
        expect(['ILLEGAL_TRANSITION', 'WRONG_STATE']).toContain(e.code);
        const after = store.load(c.contract_id);
        expect(after.state).toBe(state);
        expect(after.state_version).toBe(c.state_version);
        expect(store.listAuditEvents({ limit: 10_000 })).toHaveLength(before);
      });
    }
  }
  it('covers every state', () => {
    expect([...byState.keys()]).toEqual([...RECOVERY_STATES]);
    expect(byState.get(RecoveryState.EXPIRED)?.state).toBe('EXPIRED');
  });
});

describe('verifyBindings', () => {
  perTest();
  const fields = ['capability', 'endpoint_symbol', 'http_method', 'target_identity_digest', 'target_fingerprint', 'intent_digest'] as const;
  it('accepts exact bindings and names the first differing field only', () => {
    const c = store.create(contractInput());
    const exact = {
      capability: c.capability,
      endpoint_symbol: c.endpoint_symbol,
      http_method: c.http_method,
      target_identity_digest: c.target_identity_digest,
      target_fingerprint: c.target_fingerprint,
      intent_digest: c.intent_digest,
    };
    expect(() => verifyBindings(c, exact)).not.toThrow();
    for (const f of fields) {
      const e = errorOf(() => verifyBindings(c, { ...exact, [f]: `${exact[f]}x` }));
      expect(e.code).toBe('BINDING_MISMATCH');
      expect(e.message).toBe(`binding mismatch: ${f}`);
    }
    expect(errorOf(() => verifyBindings(c, { ...exact, http_method: 'patch' })).code).toBe('BINDING_MISMATCH');
  });
});
