import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LOOSE_RATE_LIMITS } from '@pfsense-mcp/test-support';
import { ExecutorContractStore } from '../src/executor-entry.js';
import { CRASH_POINTS, SqliteConsumptionStore } from '../src/index.js';
import type { CrashPoint, SqliteRecoveryContractStore } from '../src/index.js';
import { buildChild, runChild, startChild } from './child-process.js';
import { T0, contractInput, errorOf, executing, hex, makeHarness, preparedConfirmed, verified } from './helpers.js';
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
    rateLimits: LOOSE_RATE_LIMITS,
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
  prepare(hx: Harness): Promise<{
    readonly steps: readonly Step[];
    readonly extra?: Record<string, unknown>;
    check(committed: boolean, point: CrashPoint): Promise<void>;
  }>;
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
          expect([after.state, after.state_version]).toEqual(
            committed ? ['PREPARED', c.state_version + 1] : ['PREPARING', c.state_version],
          );
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
          if (committed)
            expect([after.confirmation?.confirmation_id, after.state_version]).toEqual([`conf-${c.contract_id}`, c.state_version + 1]);
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
            expect([after.state, after.state_version, after.verified_target_fingerprint]).toEqual([
              'RECONCILIATION',
              r.state_version,
              null,
            ]);
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
      const open = () =>
        SqliteConsumptionStore.open({ directory: hx.dir, masterKey: hx.masterKey, clock: () => T0, anchor: { file: anchor } });
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
          prepared.map((p, i) =>
            runChild(script, configFor(harnesses[i]!, { ...p.extra, steps: p.steps, crashOp: CRASH_CASES[i]!.op, crashAt: point })),
          ),
        );
        for (const [i, r] of runs.entries())
          expect([CRASH_CASES[i]!.op, r.signal, r.lines.filter((l) => l.ok === false)]).toEqual([CRASH_CASES[i]!.op, 'SIGKILL', []]);
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

interface Round {
  readonly nowMs?: number;
  readonly rateLimits?: Record<string, number>;
  readonly steps: readonly Step[];
}

/**
 * A pool of real processes that runs several races, one round at a time: every child opens the store for
 * the round, says ready, and all are released together. One process start per child for all the races.
 * `perChild[i][r]` is child i's job in round r; returns `results[r][i]`.
 */
async function racePool(perChild: readonly (readonly Round[])[]): Promise<Record<string, unknown>[][]> {
  const children = perChild.map((rounds) => startChild(script, childConfig({ rounds })));
  const results: Record<string, unknown>[][] = [];
  try {
    for (let r = 0; r < (perChild[0]?.length ?? 0); r += 1) {
      await Promise.all(children.map((c) => c.waitFor((l) => l.ready === true && l.round === r)));
      for (const c of children) c.process.stdin?.write('go\n');
      results.push(await Promise.all(children.map((c) => c.waitFor((l) => l.round === r && typeof l.op === 'string'))));
    }
  } finally {
    for (const c of children) c.process.stdin?.end();
    await Promise.all(children.map((c) => c.done));
  }
  return results;
}

describe('races between real processes', () => {
  const N = 8; // the floor for races (docs/DESIGN.md §9): every race below runs in 8 concurrent processes (one pool, several rounds)

  it(`${N} processes race, round by round: in-flight limit, target reservation, CAS, expiry vs EXECUTING, tryConsume, per-target window`, async () => {
    const s = await h.open();
    const pre = await SqliteConsumptionStore.open({ directory: h.dir, masterKey: h.masterKey, clock: () => T0 });
    pre.close();
    const each = <T>(f: (i: number) => T): T[] => Array.from({ length: N }, (_, i) => f(i));
    // Everything the rounds act on exists before the children start.
    const inFlight = each((i) => preparedConfirmed(s, contractInput({ target: 200 + i })));
    const reserved = each(() => preparedConfirmed(s, contractInput({ target: 42 })));
    const cas = preparedConfirmed(s, contractInput({ target: 43 }));
    const expiresAt = T0 + 10_000;
    const expiring = preparedConfirmed(s, contractInput({ target: 44, expires_at: expiresAt }));
    const windowLimits = { ...LOOSE_RATE_LIMITS, maxPreparesPerTargetPerWindow: 1 };
    const creates = each(() => contractInput({ target: 45 }));

    const rounds: Round[][] = each((i) => [
      // 0: global in-flight limit 1 (the defaults) across processes, one target each
      { rateLimits: {}, steps: [{ op: 'beginExecution', args: { id: inFlight[i]!.contract_id } }] },
      // 1: one target, one contract per process: exactly one reservation
      { steps: [{ op: 'beginExecution', args: { id: reserved[i]!.contract_id } }] },
      // 2: one contract, same expected version everywhere: exactly one CAS winner
      { steps: [{ op: 'beginExecution', args: { id: cas.contract_id, version: cas.state_version } }] },
      // 3: expiry at the expiry instant against EXECUTING one millisecond before it
      i % 2 === 0
        ? { nowMs: expiresAt, steps: [{ op: 'expire' }] }
        : { nowMs: expiresAt - 1, steps: [{ op: 'beginExecution', args: { id: expiring.contract_id, version: expiring.state_version } }] },
      // 4: one authorization id: exactly one true
      { steps: [{ op: 'tryConsume', args: { id: 'auth-raced' } }] },
      // 5: the persisted per-target window (limit 1): exactly one create admitted (the clock stays at or
      // after round 3's: the persisted windows refuse a clock that went backwards)
      { nowMs: expiresAt, rateLimits: windowLimits, steps: [{ op: 'create', args: { input: creates[i] } }] },
    ]);
    const [rInFlight, rReserved, rCas, rExpiry, rConsume, rWindow] = await racePool(rounds);

    expect(rInFlight!.filter((r) => r.ok === true)).toHaveLength(1);
    expect(rInFlight!.filter((r) => r.ok === false).map((r) => r.code)).toEqual(Array(N - 1).fill('RATE_LIMITED'));

    expect(rReserved!.filter((r) => r.ok === true)).toHaveLength(1);
    expect(rReserved!.filter((r) => r.ok === false).map((r) => r.code)).toEqual(Array(N - 1).fill('TARGET_RESERVED'));
    const onTarget = reserved.map((c) => s.load(c.contract_id).state);
    expect([onTarget.filter((x) => x === 'EXECUTING').length, onTarget.filter((x) => x === 'PREPARED').length]).toEqual([1, N - 1]);

    expect(rCas!.filter((r) => r.ok === true)).toHaveLength(1);
    for (const r of rCas!.filter((x) => x.ok === false)) expect(['STALE_STATE_VERSION', 'ILLEGAL_TRANSITION']).toContain(r.code);

    // expiry cannot race an acquired execution: exactly one of EXPIRED / EXECUTING, never both
    const expired = rExpiry!.filter(
      (r) => r.op === 'expire' && Array.isArray(r.value) && (r.value as string[]).includes(expiring.contract_id),
    );
    const executed = rExpiry!.filter((r) => r.op === 'beginExecution' && r.ok === true);
    expect(rExpiry!.filter((r) => r.op === 'expire').every((r) => r.ok === true)).toBe(true);
    expect(expired.length + executed.length).toBe(1);
    const after = s.load(expiring.contract_id);
    expect([after.state, after.state_version]).toEqual([executed.length === 1 ? 'EXECUTING' : 'EXPIRED', expiring.state_version + 1]);
    expect(s.holdsReservation(expiring.contract_id)).toBe(executed.length === 1);
    for (const r of rExpiry!.filter((x) => x.op === 'beginExecution' && x.ok === false)) {
      expect(['STALE_STATE_VERSION', 'ILLEGAL_TRANSITION', 'CONTRACT_EXPIRED']).toContain(r.code);
    }
    expect(
      s
        .listAuditEvents({ contractId: expiring.contract_id, limit: 100 })
        .filter((e) => e.to_state === 'EXECUTING' || e.to_state === 'EXPIRED'),
    ).toHaveLength(1);

    expect(rConsume!.map((r) => r.value).filter((v) => v === true)).toHaveLength(1);
    expect(rConsume!.map((r) => r.value).filter((v) => v === false)).toHaveLength(N - 1);

    // rate limits hold across processes for the persisted windows
    expect(rWindow!.filter((r) => r.ok === true)).toHaveLength(1);
    expect(rWindow!.filter((r) => r.ok === false).map((r) => r.code)).toEqual(Array(N - 1).fill('RATE_LIMITED'));
    expect(s.list({ limit: 1000 }).filter((c) => c.target_identity_digest === hex(45))).toHaveLength(1);
    s.close();
    h.clock.now = expiresAt;
    const again = await h.open({ rateLimits: windowLimits });
    expect(errorOf(() => again.create(contractInput({ target: 45 }))).code).toBe('RATE_LIMITED');
    expect(again.verifyAuditChain()).toMatchObject({ ok: true });
  }, 120_000);
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
    expect(
      errorOf(() =>
        ex.markExecutionVerified(c.contract_id, running.state_version, { verifiedTargetFingerprint: hex(2), verifiedLifecycleLocator: 7 }),
      ).code,
    ).toBe('OWNER_MISMATCH');
    expect(errorOf(() => ex.markExecutionAmbiguous(c.contract_id, running.state_version, 'AMBIGUOUS')).code).toBe('OWNER_MISMATCH');
    owner.process.kill('SIGKILL');
    await owner.done;
    expect(ex.reconcileInterrupted()).toEqual([{ contract_id: c.contract_id, from_state: 'EXECUTING' }]);
    expect(s.load(c.contract_id).state).toBe('RECONCILIATION');
  });
});
