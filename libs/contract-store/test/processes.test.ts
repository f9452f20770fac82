import { readFileSync } from 'node:fs';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ExecutorContractStore } from '../src/executor-entry.js';
import { CRASH_POINTS, SqliteConsumptionStore } from '../src/index.js';
import type { CrashPoint, RecoveryContract, SqliteRecoveryContractStore } from '../src/index.js';
import { buildChild, runChild, startChild } from './child-process.js';
import { LOOSE_LIMITS, T0, contractInput, errorOf, hex, makeHarness, preparedConfirmed, verified } from './helpers.js';
import type { Harness } from './helpers.js';

let script: string;
beforeAll(async () => {
  script = await buildChild();
}, 60_000);

let h: Harness;
beforeEach(() => {
  h = makeHarness();
});
afterEach(() => h.cleanup());

function childConfig(extra: Record<string, unknown>): Record<string, unknown> {
  return {
    dir: h.dir,
    anchorFile: h.anchorFile,
    masterKeyHex: Buffer.from(h.masterKey).toString('hex'),
    nowMs: h.clock.now,
    rateLimits: LOOSE_LIMITS,
    ...extra,
  };
}

const anchorSequence = () => (JSON.parse(readFileSync(h.anchorFile, 'utf8')) as { sequence: number }).sequence;
const headSequence = (s: SqliteRecoveryContractStore) => s.listAuditEvents({ limit: 10_000 }).at(-1)?.sequence ?? 0;

async function crashRun(steps: readonly Record<string, unknown>[], crashOp: string, point: CrashPoint): Promise<void> {
  const r = await runChild(script, childConfig({ steps, crashOp, crashAt: point }));
  expect(r.signal).toBe('SIGKILL');
}

describe('crash at every durable boundary (child killed with SIGKILL, parent reopens)', () => {
  // For each point: is the operation's commit durable after the crash?
  const committed: Record<CrashPoint, boolean> = {
    'before-begin': false,
    'after-write-before-commit': false,
    'after-commit-before-anchor': true,
    'after-anchor': true,
  };

  for (const point of CRASH_POINTS) {
    it(`create, killed ${point}`, async () => {
      const input = contractInput({ target: 1 });
      await crashRun([{ op: 'create', args: { input: { ...input, contract_id: 'ctr-crash' } } }], 'create', point);
      const s = await h.open();
      // Opening accepted a database at most one commit ahead of the anchor and advanced the anchor.
      expect(anchorSequence()).toBe(headSequence(s));
      if (committed[point]) expect(s.load('ctr-crash').state).toBe('PREPARING');
      else expect(errorOf(() => s.load('ctr-crash')).code).toBe('CONTRACT_NOT_FOUND');
      expect(s.verifyAuditChain()).toEqual({ ok: true });
    });

    it(`PREPARED → EXECUTING, killed ${point}`, async () => {
      const s0 = await h.open();
      const c = preparedConfirmed(s0, contractInput({ target: 1 }));
      s0.close();
      const anchorBefore = anchorSequence();
      await crashRun([{ op: 'beginExecution', args: { id: c.contract_id } }], 'beginExecution', point);
      if (point === 'after-commit-before-anchor') expect(anchorSequence()).toBe(anchorBefore);
      const s = await h.open();
      expect(anchorSequence()).toBe(headSequence(s));
      const moved = ExecutorContractStore.of(s).reconcileInterrupted();
      const after = s.load(c.contract_id);
      if (committed[point]) {
        // The owner (the killed child) is dead: an interrupted EXECUTING becomes RECONCILIATION, never resent.
        expect(moved).toEqual([{ contract_id: c.contract_id, from_state: 'EXECUTING' }]);
        expect(after.state).toBe('RECONCILIATION');
        expect(after.reconciliation).toMatchObject({ origin: 'EXECUTING', outcome_class: 'INTERRUPTED' });
        expect(s.holdsReservation(c.contract_id)).toBe(true);
      } else {
        expect(moved).toEqual([]);
        expect(after.state).toBe('PREPARED');
        expect(after.state_version).toBe(c.state_version);
        expect(s.holdsReservation(c.contract_id)).toBe(false);
      }
    });

    it(`EXECUTING → VERIFIED by the owner, killed ${point}`, async () => {
      const s0 = await h.open();
      const c = preparedConfirmed(s0, contractInput({ target: 1 }));
      s0.close();
      await crashRun(
        [
          { op: 'beginExecution', args: { id: c.contract_id } },
          { op: 'markExecutionVerified', args: { id: c.contract_id } },
        ],
        'markExecutionVerified',
        point,
      );
      const s = await h.open();
      expect(anchorSequence()).toBe(headSequence(s));
      ExecutorContractStore.of(s).reconcileInterrupted();
      const after = s.load(c.contract_id);
      if (committed[point]) {
        expect(after.state).toBe('VERIFIED');
        expect(after.verified_target_fingerprint).toBe('e'.repeat(64));
        expect(s.holdsReservation(c.contract_id)).toBe(false);
      } else {
        expect(after.state).toBe('RECONCILIATION');
        expect(after.verified_target_fingerprint).toBeNull();
      }
    });

    it(`VERIFIED → ROLLING_BACK, killed ${point}`, async () => {
      const s0 = await h.open();
      const v = verified(s0, contractInput({ target: 1 }));
      s0.close();
      await crashRun([{ op: 'beginRollback', args: { id: v.contract_id } }], 'beginRollback', point);
      const s = await h.open();
      expect(anchorSequence()).toBe(headSequence(s));
      ExecutorContractStore.of(s).reconcileInterrupted();
      const after = s.load(v.contract_id);
      if (committed[point]) {
        expect(after.state).toBe('RECONCILIATION');
        expect(after.reconciliation?.origin).toBe('ROLLING_BACK');
      } else {
        expect(after.state).toBe('VERIFIED');
        expect(after.state_version).toBe(v.state_version);
      }
    });
  }
});

async function race(configs: readonly Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
  const children = configs.map((c) => startChild(script, childConfig({ ...c, waitForGo: true })));
  await Promise.all(children.map((c) => c.waitFor((l) => l.ready === true)));
  for (const c of children) c.process.stdin?.write('go\n');
  const results = await Promise.all(children.map((c) => c.waitFor((l) => typeof l.op === 'string')));
  for (const c of children) c.process.stdin?.end();
  await Promise.all(children.map((c) => c.done));
  return results;
}

describe('races between real processes', () => {
  const N = 8; // the floor for the reservation race and tryConsume
  const M = 4; // enough for the CAS and rate races; keeps the suite within budget on 2 shared cores

  it(`${N} processes try to acquire EXECUTING for one target (one contract each): exactly one wins`, async () => {
    const s = await h.open();
    const contracts: RecoveryContract[] = [];
    for (let i = 0; i < N; i += 1) contracts.push(preparedConfirmed(s, contractInput({ target: 42 })));
    const results = await race(contracts.map((c) => ({ steps: [{ op: 'beginExecution', args: { id: c.contract_id } }] })));
    expect(results.filter((r) => r.ok === true)).toHaveLength(1);
    expect(results.filter((r) => r.ok === false).map((r) => r.code)).toEqual(Array(N - 1).fill('TARGET_RESERVED'));
    const states = s.list({ limit: 100 }).map((c) => c.state);
    expect(states.filter((x) => x === 'EXECUTING')).toHaveLength(1);
    expect(states.filter((x) => x === 'PREPARED')).toHaveLength(N - 1);
    expect(s.verifyAuditChain()).toEqual({ ok: true });
  });

  it(`${M} processes race PREPARED → EXECUTING on the same contract: exactly one wins (CAS)`, async () => {
    const s = await h.open();
    const c = preparedConfirmed(s, contractInput({ target: 43 }));
    const results = await race(Array.from({ length: M }, () => ({ steps: [{ op: 'beginExecution', args: { id: c.contract_id, version: c.state_version } }] })));
    expect(results.filter((r) => r.ok === true)).toHaveLength(1);
    for (const r of results.filter((x) => x.ok === false)) expect(['STALE_STATE_VERSION', 'ILLEGAL_TRANSITION']).toContain(r.code);
  });

  it(`${N} processes tryConsume one authorization id: exactly one true`, async () => {
    const pre = await SqliteConsumptionStore.open({ directory: h.dir, masterKey: h.masterKey, clock: () => T0 });
    pre.close();
    const results = await race(Array.from({ length: N }, () => ({ steps: [{ op: 'tryConsume', args: { id: 'auth-raced' } }] })));
    expect(results.map((r) => r.value).filter((v) => v === true)).toHaveLength(1);
    expect(results.map((r) => r.value).filter((v) => v === false)).toHaveLength(N - 1);
  });

  it(`rate limits hold across processes: ${M} processes, ${M} targets, global in-flight 1 → one EXECUTING`, async () => {
    const s = await h.open({ rateLimits: {} });
    const contracts: RecoveryContract[] = [];
    for (let i = 0; i < M; i += 1) contracts.push(preparedConfirmed(s, contractInput({ target: 200 + i })));
    const results = await race(contracts.map((c) => ({ rateLimits: {}, steps: [{ op: 'beginExecution', args: { id: c.contract_id } }] })));
    expect(results.filter((r) => r.ok === true)).toHaveLength(1);
    expect(results.filter((r) => r.ok === false).map((r) => r.code)).toEqual(Array(M - 1).fill('RATE_LIMITED'));
  });
});

describe('live owners', () => {
  it("a live owner's EXECUTING row survives another process's reconcileInterrupted(); its death does not", async () => {
    const s = await h.open();
    const c = preparedConfirmed(s, contractInput({ target: 1 }));
    const owner = startChild(script, childConfig({ steps: [{ op: 'beginExecution', args: { id: c.contract_id } }], holdAfter: true }));
    await owner.waitFor((l) => l.op === 'beginExecution' && l.ok === true);
    const ex = ExecutorContractStore.of(s);
    expect(ex.reconcileInterrupted()).toEqual([]);
    const running = s.load(c.contract_id);
    expect(running.state).toBe('EXECUTING');
    expect(running.owner?.pid).toBe(owner.process.pid);
    // Another live process may not finish the owner's execution either.
    expect(errorOf(() => ex.markExecutionVerified(c.contract_id, running.state_version, { verifiedTargetFingerprint: hex(2), verifiedLifecycleLocator: 7 })).code).toBe(
      'OWNER_MISMATCH',
    );
    expect(errorOf(() => ex.markExecutionAmbiguous(c.contract_id, running.state_version, 'AMBIGUOUS')).code).toBe('OWNER_MISMATCH');
    owner.process.kill('SIGKILL');
    await owner.done;
    expect(ex.reconcileInterrupted()).toEqual([{ contract_id: c.contract_id, from_state: 'EXECUTING' }]);
    expect(s.load(c.contract_id).state).toBe('RECONCILIATION');
  });
});
