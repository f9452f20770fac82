import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ExecutorContractStore } from '../src/executor-entry.js';
import { CRASH_POINTS, SqliteConsumptionStore } from '../src/index.js';
import type { CrashPoint, RecoveryContract, SqliteRecoveryContractStore } from '../src/index.js';
import { buildChild, runChild, startChild } from './child-process.js';
import { LOOSE_LIMITS, T0, contractInput, errorOf, executing, hex, makeHarness, preparedConfirmed, verified } from './helpers.js';
import type { Harness } from './helpers.js';

let script: string;
let removeBuild: () => void;
beforeAll(async () => {
  ({ script, remove: removeBuild } = await buildChild());
}, 60_000);
afterAll(() => removeBuild());

let h: Harness;
beforeEach(() => {
  h = makeHarness();
});
afterEach(() => h.cleanup());

function configFor(hx: Harness, extra: Record<string, unknown>): Record<string, unknown> {
  return {
    dir: hx.dir,
    anchorFile: hx.anchorFile,
    masterKeyHex: Buffer.from(hx.masterKey).toString('hex'),
    nowMs: hx.clock.now,
    rateLimits: LOOSE_LIMITS,
    ...extra,
  };
}
const childConfig = (extra: Record<string, unknown>) => configFor(h, extra);

const sequenceIn = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { sequence: number }).sequence;
const headSequence = (s: SqliteRecoveryContractStore) => s.listAuditEvents({ limit: 10_000 }).at(-1)?.sequence ?? 0;

type Step = Record<string, unknown>;

/** One operation of the crash table: `prepare` builds its store in its own directory and returns what the child runs and what the parent then asserts. */
interface CrashCase {
  readonly op: string;
  prepare(hx: Harness): Promise<{ readonly steps: readonly Step[]; readonly extra?: Record<string, unknown>; check(committed: boolean, point: CrashPoint): Promise<void> }>;
}

/** Reopens the contract store: opening accepts a database at most one commit ahead of the anchor and advances it. */
async function reopened(hx: Harness): Promise<{ s: SqliteRecoveryContractStore; ex: ExecutorContractStore }> {
  const s = await hx.open();
  expect(sequenceIn(hx.anchorFile)).toBe(headSequence(s));
  expect(s.verifyAuditChain()).toMatchObject({ ok: true });
  return { s, ex: ExecutorContractStore.of(s) };
}

const CRASH_CASES: readonly CrashCase[] = [
  {
    op: 'create',
    async prepare(hx) {
      const input = { ...contractInput({ target: 1 }), contract_id: 'ctr-crash' };
      return {
        steps: [{ op: 'create', args: { input } }],
        async check(committed) {
          const { s } = await reopened(hx);
          if (committed) expect(s.load('ctr-crash').state).toBe('PREPARING');
          else expect(errorOf(() => s.load('ctr-crash')).code).toBe('CONTRACT_NOT_FOUND');
        },
      };
    },
  },
  {
    op: 'markPrepared',
    async prepare(hx) {
      const s0 = await hx.open();
      const c = s0.create(contractInput({ target: 1 }));
      s0.close();
      return {
        steps: [{ op: 'markPrepared', args: { id: c.contract_id, version: c.state_version } }],
        async check(committed) {
          const { s } = await reopened(hx);
          const after = s.load(c.contract_id);
          expect([after.state, after.state_version]).toEqual(committed ? ['PREPARED', c.state_version + 1] : ['PREPARING', c.state_version]);
        },
      };
    },
  },
  {
    op: 'confirm',
    async prepare(hx) {
      const s0 = await hx.open();
      const c0 = s0.create(contractInput({ target: 1 }));
      const c = s0.markPrepared(c0.contract_id, c0.state_version);
      s0.close();
      return {
        steps: [{ op: 'confirm', args: { id: c.contract_id } }],
        async check(committed) {
          const { s } = await reopened(hx);
          const after = s.load(c.contract_id);
          expect(after.state).toBe('PREPARED');
          if (committed) expect([after.confirmation?.confirmation_id, after.state_version]).toEqual([`conf-${c.contract_id}`, c.state_version + 1]);
          else expect([after.confirmation, after.state_version]).toEqual([null, c.state_version]);
        },
      };
    },
  },
  {
    op: 'beginExecution',
    async prepare(hx) {
      const s0 = await hx.open();
      const c = preparedConfirmed(s0, contractInput({ target: 1 }));
      s0.close();
      const anchorBefore = sequenceIn(hx.anchorFile);
      return {
        steps: [{ op: 'beginExecution', args: { id: c.contract_id } }],
        async check(committed, point) {
          if (point === 'after-commit-before-anchor') expect(sequenceIn(hx.anchorFile)).toBe(anchorBefore);
          const { s, ex } = await reopened(hx);
          const moved = ex.reconcileInterrupted();
          const after = s.load(c.contract_id);
          if (committed) {
            // The owner (the killed child) is dead: an interrupted EXECUTING becomes RECONCILIATION, never resent.
            expect(moved).toEqual([{ contract_id: c.contract_id, from_state: 'EXECUTING' }]);
            expect(after.state).toBe('RECONCILIATION');
            expect(after.reconciliation).toMatchObject({ origin: 'EXECUTING', outcome_class: 'INTERRUPTED' });
            expect(s.holdsReservation(c.contract_id)).toBe(true);
          } else {
            expect(moved).toEqual([]);
            expect([after.state, after.state_version]).toEqual(['PREPARED', c.state_version]);
            expect(s.holdsReservation(c.contract_id)).toBe(false);
          }
        },
      };
    },
  },
  {
    op: 'markExecutionVerified',
    async prepare(hx) {
      const s0 = await hx.open();
      const c = preparedConfirmed(s0, contractInput({ target: 1 }));
      s0.close();
      return {
        steps: [
          { op: 'beginExecution', args: { id: c.contract_id } },
          { op: 'markExecutionVerified', args: { id: c.contract_id } },
        ],
        async check(committed) {
          const { s, ex } = await reopened(hx);
          ex.reconcileInterrupted();
          const after = s.load(c.contract_id);
          if (committed) {
            expect([after.state, after.verified_target_fingerprint]).toEqual(['VERIFIED', 'e'.repeat(64)]);
            expect(s.holdsReservation(c.contract_id)).toBe(false);
          } else {
            expect([after.state, after.verified_target_fingerprint]).toEqual(['RECONCILIATION', null]);
          }
        },
      };
    },
  },
  {
    op: 'beginRollback',
    async prepare(hx) {
      const s0 = await hx.open();
      const v = verified(s0, contractInput({ target: 1 }));
      s0.close();
      return {
        steps: [{ op: 'beginRollback', args: { id: v.contract_id } }],
        async check(committed) {
          const { s, ex } = await reopened(hx);
          ex.reconcileInterrupted();
          const after = s.load(v.contract_id);
          if (committed) expect([after.state, after.reconciliation?.origin]).toEqual(['RECONCILIATION', 'ROLLING_BACK']);
          else expect([after.state, after.state_version]).toEqual(['VERIFIED', v.state_version]);
        },
      };
    },
  },
  {
    op: 'markRollbackVerified',
    async prepare(hx) {
      const s0 = await hx.open();
      const v = verified(s0, contractInput({ target: 1 }));
      s0.close();
      return {
        steps: [
          { op: 'beginRollback', args: { id: v.contract_id } },
          { op: 'markRollbackVerified', args: { id: v.contract_id } },
        ],
        async check(committed) {
          const { s, ex } = await reopened(hx);
          ex.reconcileInterrupted();
          const after = s.load(v.contract_id);
          if (committed) {
            expect(after.state).toBe('ROLLED_BACK');
            expect(s.holdsReservation(v.contract_id)).toBe(false);
          } else {
            // the rollback began (committed earlier in the child) but its verification did not: interrupted
            expect([after.state, after.reconciliation?.origin]).toEqual(['RECONCILIATION', 'ROLLING_BACK']);
            expect(s.holdsReservation(v.contract_id)).toBe(true);
          }
        },
      };
    },
  },
  {
    op: 'resolveReconciliation',
    async prepare(hx) {
      const s0 = await hx.open();
      const e = executing(s0, contractInput({ target: 1 }));
      const r = ExecutorContractStore.of(s0).markExecutionAmbiguous(e.contract_id, e.state_version, 'AMBIGUOUS');
      const facts = hx.authorities.reconciliationVerifier().verify(r, hx.authorities.resolution(r, 'FORWARD_APPLIED'), hx.clock.now);
      s0.close();
      return {
        steps: [{ op: 'resolveReconciliation', args: { id: r.contract_id, facts } }],
        async check(committed) {
          const { s } = await reopened(hx);
          const after = s.load(r.contract_id);
          if (committed) {
            expect([after.state, after.verified_target_fingerprint]).toEqual(['VERIFIED', hex(0xabc)]);
            expect(s.holdsReservation(r.contract_id)).toBe(false);
          } else {
            expect([after.state, after.state_version, after.verified_target_fingerprint]).toEqual(['RECONCILIATION', r.state_version, null]);
            expect(s.holdsReservation(r.contract_id)).toBe(true);
          }
        },
      };
    },
  },
  {
    op: 'tryConsume',
    async prepare(hx) {
      const anchor = join(hx.anchorDir, 'consumption-anchor.json');
      const open = () => SqliteConsumptionStore.open({ directory: hx.dir, masterKey: hx.masterKey, clock: () => T0, anchor: { file: anchor } });
      const pre = await open();
      expect(pre.tryConsume('auth-before')).toBe(true);
      pre.close();
      return {
        steps: [{ op: 'tryConsume', args: { id: 'auth-crash' } }],
        extra: { consumptionAnchorFile: anchor },
        async check(committed) {
          // Reopening accepts a file one commit ahead of its anchor and advances it; never "not consumed" after a commit.
          const c = await open();
          try {
            expect(sequenceIn(anchor)).toBe(committed ? 2 : 1);
            expect(c.isConsumed('auth-before')).toBe(true);
            expect(c.isConsumed('auth-crash')).toBe(committed);
            expect(c.tryConsume('auth-crash')).toBe(!committed);
            expect(c.tryConsume('auth-crash')).toBe(false);
          } finally {
            c.close();
          }
        },
      };
    },
  },
];

describe('crash at every durable boundary (children killed with SIGKILL, parent reopens)', () => {
  // For each point: is the operation's commit durable after the crash?
  const committed: Record<CrashPoint, boolean> = {
    'before-begin': false,
    'after-write-before-commit': false,
    'after-commit-before-anchor': true,
    'after-anchor': true,
  };

  // One test per point: every operation of the table runs in its own store and child, all in parallel
  // (one shared child build), so adding operations adds little wall-clock time.
  for (const point of CRASH_POINTS) {
    it(`${CRASH_CASES.map((c) => c.op).join(', ')}: each killed ${point}`, async () => {
      const harnesses = CRASH_CASES.map(() => makeHarness());
      try {
        const prepared = await Promise.all(CRASH_CASES.map((c, i) => c.prepare(harnesses[i]!)));
        const runs = await Promise.all(
          prepared.map((p, i) => runChild(script, configFor(harnesses[i]!, { ...p.extra, steps: p.steps, crashOp: CRASH_CASES[i]!.op, crashAt: point }))),
        );
        for (const [i, r] of runs.entries()) expect([CRASH_CASES[i]!.op, r.signal, r.lines.filter((l) => l.ok === false)]).toEqual([CRASH_CASES[i]!.op, 'SIGKILL', []]);
        for (const [i, p] of prepared.entries()) {
          try {
            await p.check(committed[point], point);
          } catch (error) {
            (error as Error).message = `${CRASH_CASES[i]!.op} killed ${point}: ${(error as Error).message}`;
            throw error;
          }
        }
      } finally {
        for (const hx of harnesses) hx.cleanup();
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

  it(`expiry cannot race an acquired execution: ${N / 2} processes expire() at the expiry instant while ${N / 2} begin EXECUTING just before it`, async () => {
    const s = await h.open();
    const expiresAt = T0 + 10_000;
    const c = preparedConfirmed(s, contractInput({ target: 44, expires_at: expiresAt }));
    const expirer = { nowMs: expiresAt, steps: [{ op: 'expire' }] };
    const executor = { nowMs: expiresAt - 1, steps: [{ op: 'beginExecution', args: { id: c.contract_id, version: c.state_version } }] };
    const results = await race(Array.from({ length: N }, (_, i) => (i % 2 === 0 ? expirer : executor)));
    const expired = results.filter((r) => r.op === 'expire' && Array.isArray(r.value) && (r.value as string[]).includes(c.contract_id));
    const executed = results.filter((r) => r.op === 'beginExecution' && r.ok === true);
    // exactly one of the two transitions happened, never both
    expect(expired.length + executed.length).toBe(1);
    const after = s.load(c.contract_id);
    expect(after.state).toBe(executed.length === 1 ? 'EXECUTING' : 'EXPIRED');
    expect(after.state_version).toBe(c.state_version + 1);
    expect(s.holdsReservation(c.contract_id)).toBe(executed.length === 1);
    for (const r of results.filter((x) => x.op === 'beginExecution' && x.ok === false)) {
      expect(['STALE_STATE_VERSION', 'ILLEGAL_TRANSITION', 'CONTRACT_EXPIRED']).toContain(r.code);
    }
    for (const r of results.filter((x) => x.op === 'expire')) expect(r.ok).toBe(true);
    expect(s.listAuditEvents({ contractId: c.contract_id, limit: 100 }).filter((e) => e.to_state === 'EXECUTING' || e.to_state === 'EXPIRED')).toHaveLength(1);
  });

  it(`rate limits hold across processes: ${N} processes create on one target, per-target window limit 1 → exactly one admitted`, async () => {
    const limits = { ...LOOSE_LIMITS, maxPreparesPerTargetPerWindow: 1 };
    const s = await h.open({ rateLimits: limits });
    const inputs = Array.from({ length: N }, () => contractInput({ target: 45 }));
    const results = await race(inputs.map((input) => ({ rateLimits: limits, steps: [{ op: 'create', args: { input } }] })));
    expect(results.filter((r) => r.ok === true)).toHaveLength(1);
    expect(results.filter((r) => r.ok === false).map((r) => r.code)).toEqual(Array(N - 1).fill('RATE_LIMITED'));
    expect(s.list({ limit: 100 })).toHaveLength(1);
    // the persisted window still refuses after a restart
    s.close();
    const again = await h.open({ rateLimits: limits });
    expect(errorOf(() => again.create(contractInput({ target: 45 }))).code).toBe('RATE_LIMITED');
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
