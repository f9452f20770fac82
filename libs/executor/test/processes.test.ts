// Real processes: crash points around the one send (SIGKILL from the store's test-only crash hooks) and
// races of several processes on one contract / one target. One simulator runs here, in the parent, and one
// child script is built for the whole file. Every test is independent — its own store files, its own alias
// and its own counting forwarder in front of the simulator (so it reads its own request count) — and the
// tests run concurrently. The simulator's own total is checked against the sum of all forwarders at the end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrashPoint } from '@pfsense-mcp/contract-store';
import type { RunningSimulator } from '@pfsense-mcp/pfsense-sim';
import { LOOSE_RATE_LIMITS } from '@pfsense-mcp/test-support';
import { buildChild, startChild } from './support/child-process.js';
import type { ChildResult } from './support/child-process.js';
import { startCountingForwarder } from './support/counting-forwarder.js';
import type { CountingForwarder } from './support/counting-forwarder.js';
import {
  ADAPTER,
  ALIAS_PATH,
  ALIASES,
  T0,
  auditTrail,
  currentAlias,
  makeWorld,
  patchCount,
  prepare,
  startTestSimulator,
} from './support/world.js';
import type { Prepared, World } from './support/world.js';

/** One alias per test, appended after ALIASES: concurrent tests never touch each other's target. */
const CRASH_ALIASES = [0, 1, 2, 3, 4].map((i) => `CRASH_${i}`);
const RACE_ALIASES = ['RACE_ROLLBACKS', 'RACE_MIXED'];
const EXTRA = [...CRASH_ALIASES, ...RACE_ALIASES].map((name, i) =>
  Object.freeze({ name, type: 'host' as const, descr: `original ${i}`, address: [`10.9.0.${i + 1}`], detail: [`host ${i}`] }),
);
const originalDescr = (name: string): string => EXTRA.find((a) => a.name === name)?.descr ?? '';

let sim: RunningSimulator;
let child: { script: string; remove(): void };
const forwarders: CountingForwarder[] = [];

beforeAll(async () => {
  [sim, child] = await Promise.all([startTestSimulator(EXTRA), buildChild()]);
}, 60_000);
afterAll(async () => {
  child.remove();
  await Promise.all(forwarders.map((f) => f.close()));
  await sim.close();
});

const adapter = ADAPTER;

// Generous, not a timing assertion: up to 17 child processes start at once on a 2-core machine shared
// with other work; a slow machine must not turn into a false failure.
const PROCESS_TEST_TIMEOUT_MS = 120_000;

/** A test's own world: store files, and every HTTP request (parent and children) through its own forwarder. */
async function isolated(): Promise<{ world: World; fwd: CountingForwarder; patches: () => number; url: string }> {
  const fwd = await startCountingForwarder(sim.url);
  forwarders.push(fwd);
  const world = await makeWorld({ url: fwd.url, apiKey: sim.apiKey });
  return { world, fwd, patches: () => fwd.count('PATCH', ALIAS_PATH), url: fwd.url };
}

function configFor(
  world: World,
  url: string,
  op: 'execute' | 'rollback',
  p: Prepared,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    dir: world.dir,
    anchorFile: world.anchorFile,
    masterKeyHex: Buffer.from(world.masterKey).toString('hex'),
    nowMs: T0,
    simUrl: url,
    apiKey: sim.apiKey,
    op,
    contractId: p.contract.contract_id,
    intent: p.intent,
    rateLimits: LOOSE_RATE_LIMITS,
    ...extra,
  };
}

describe.concurrent('crashes around the send: after restart the contract is in RECONCILIATION and nothing is resent', () => {
  const FORWARD_OUTCOMES = ['markExecutionVerified', 'markExecutionFailed', 'markExecutionAmbiguous'];
  const ROLLBACK_OUTCOMES = ['markRollbackVerified', 'markRollbackFailed', 'markRollbackAmbiguous'];
  const cases: readonly [name: string, op: 'execute' | 'rollback', point: CrashPoint, ops: readonly string[], sent: 0 | 1][] = [
    ['forward: EXECUTING committed, before the send', 'execute', 'after-anchor', ['beginExecution'], 0],
    ['forward: after the send, before the outcome transaction', 'execute', 'before-begin', FORWARD_OUTCOMES, 1],
    ['forward: after the send, outcome written but not committed', 'execute', 'after-write-before-commit', FORWARD_OUTCOMES, 1],
    ['rollback: ROLLING_BACK committed, before the send', 'rollback', 'after-anchor', ['beginRollback'], 0],
    ['rollback: after the send, before the outcome transaction', 'rollback', 'before-begin', ROLLBACK_OUTCOMES, 1],
  ];
  cases.forEach(([name, op, point, ops, sent], i) => {
    it(
      name,
      async () => {
        const { world, fwd, patches, url } = await isolated();
        try {
          const alias = CRASH_ALIASES[i] as string;
          const p = await prepare(world, alias, 'changed by a process that dies');
          if (op === 'rollback') {
            expect((await world.executor.execute(p.contract.contract_id, { adapter, intent: p.intent })).state).toBe('VERIFIED');
            fwd.reset();
          }
          const killed = startChild(child.script, configFor(world, url, op, p, { crashAt: point, crashOps: ops }));
          killed.process.stdin?.end();
          const result: ChildResult = await killed.done;
          expect(result.signal, JSON.stringify({ code: result.code, lines: result.lines })).toBe('SIGKILL');
          expect(patches()).toBe(sent);
          const inFlight = op === 'execute' ? 'EXECUTING' : 'ROLLING_BACK';
          expect(world.store.load(p.contract.contract_id).state).toBe(inFlight);

          // The restarted process: a new executor over the same files runs reconcileInterrupted() first.
          const restarted = world.executorWith(world.writeProxy);
          expect(restarted.reconciledAtStart).toEqual([{ contract_id: p.contract.contract_id, from_state: inFlight }]);
          const c = world.store.load(p.contract.contract_id);
          expect(c.state).toBe('RECONCILIATION');
          expect(c.reconciliation).toMatchObject({ origin: inFlight, outcome_class: 'INTERRUPTED' });
          expect(auditTrail(world.store, c.contract_id).at(-1)).toBe(`transition:${inFlight}>RECONCILIATION:INTERRUPTED`);
          expect(world.store.verifyAuditChain()).toEqual({ ok: true });

          // Nothing is resent: both operations refuse, and the appliance saw at most the one request.
          await expect(restarted.execute(c.contract_id, { adapter, intent: p.intent })).rejects.toMatchObject({ code: 'WRONG_STATE' });
          await expect(restarted.rollback(c.contract_id, { adapter })).rejects.toMatchObject({ code: 'WRONG_STATE' });
          expect(patches()).toBe(sent);
          const obs = await restarted.observeReconciliationTarget(c.contract_id, { adapter });
          // An interrupted send recorded no config-history corroboration.
          expect(obs).toMatchObject({ origin: inFlight, observedLifecycleLocator: p.pre.id, locatorMatches: true, configHistory: null });
          expect(p.pre.id).toBe(ALIASES.length + i);
          expect(patches()).toBe(sent);
        } finally {
          world.cleanup();
        }
      },
      PROCESS_TEST_TIMEOUT_MS,
    );
  });
});

describe.concurrent('races between processes', () => {
  async function race(configs: readonly Record<string, unknown>[]): Promise<readonly Record<string, unknown>[]> {
    const children = configs.map((cfg) => startChild(child.script, { ...cfg, waitForGo: true }));
    await Promise.all(children.map((c) => c.waitFor((l) => l.ready === true)));
    for (const c of children) c.process.stdin?.write('go\n');
    const results = await Promise.all(children.map((c) => c.done));
    return results.map((r) => {
      expect(r.code).toBe(0);
      const last = r.lines.at(-1) as Record<string, unknown>;
      expect(last).toBeDefined();
      return last;
    });
  }

  it(
    '8 processes roll back one VERIFIED contract: exactly one rollback send',
    async () => {
      const { world, fwd, patches, url } = await isolated();
      try {
        const name = 'RACE_ROLLBACKS';
        const p = await prepare(world, name, 'raced rollback');
        expect((await world.executor.execute(p.contract.contract_id, { adapter, intent: p.intent })).state).toBe('VERIFIED');
        fwd.reset();
        const results = await race(Array.from({ length: 8 }, () => configFor(world, url, 'rollback', p)));
        const outcomes = results.filter((r) => r.outcome !== undefined).map((r) => r.outcome as { state: string; sends: number });
        const refused = results.filter((r) => r.refused !== undefined).map((r) => r.refused as string);
        expect(outcomes).toHaveLength(1);
        expect(outcomes[0]).toMatchObject({ state: 'ROLLED_BACK', sends: 1 });
        expect(refused).toHaveLength(7);
        for (const code of refused) expect(['STALE_STATE', 'WRONG_STATE', 'TARGET_RESERVED']).toContain(code);
        expect(patches()).toBe(1);
        expect((await currentAlias(world.readClient, name))?.descr).toBe(originalDescr(name));
        expect(world.store.load(p.contract.contract_id).state).toBe('ROLLED_BACK');
        expect(world.store.verifyAuditChain()).toEqual({ ok: true });
      } finally {
        world.cleanup();
      }
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    'rollback races execute on the same target: one mutation, never a second',
    async () => {
      const { world, fwd, patches, url } = await isolated();
      try {
        const name = 'RACE_MIXED';
        const a = await prepare(world, name, 'first change');
        expect((await world.executor.execute(a.contract.contract_id, { adapter, intent: a.intent })).state).toBe('VERIFIED');
        const b = await prepare(world, name, 'second change');
        fwd.reset();
        const configs = [0, 1].flatMap(() => [configFor(world, url, 'rollback', a), configFor(world, url, 'execute', b)]);
        const results = await race(configs);
        const outcomes = results
          .filter((r) => r.outcome !== undefined)
          .map((r) => r.outcome as { operation: string; state: string; sends: number });
        const totalSends = outcomes.reduce((n, o) => n + o.sends, 0);
        expect(totalSends).toBe(1);
        expect(patches()).toBe(1);
        const winner = outcomes.find((o) => o.sends === 1);
        const descr = (await currentAlias(world.readClient, name))?.descr;
        if (winner?.operation === 'rollback') {
          expect(winner.state).toBe('ROLLED_BACK');
          expect(descr).toBe(originalDescr(name));
        } else {
          expect(winner).toMatchObject({ operation: 'execute', state: 'VERIFIED' });
          expect(descr).toBe('second change');
        }
        expect(world.store.verifyAuditChain()).toEqual({ ok: true });
      } finally {
        world.cleanup();
      }
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});

describe('the forwarders hid nothing', () => {
  it("the simulator counted exactly the PATCHes all forwarders passed on (counted since each test's last reset)", () => {
    // Resets only drop the parent's own setup executes (one PATCH each, for the 2 rollback crash cases and
    // the 2 races); everything else every test sent reached the simulator through its forwarder.
    const counted = forwarders.reduce((n, f) => n + f.count('PATCH', ALIAS_PATH), 0);
    expect(forwarders).toHaveLength(7);
    expect(patchCount(sim)).toBe(counted + 4);
  });
});
