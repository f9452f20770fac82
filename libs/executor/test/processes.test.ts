// Real processes: crash points around the one send (SIGKILL from the store's test-only crash hooks) and
// races of several processes on one contract / one target. The simulator runs here, in the parent; the
// children reach it over loopback and open the same store files.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CrashPoint } from '@pfsense-mcp/contract-store';
import type { RunningSimulator } from '@pfsense-mcp/pfsense-sim';
import { buildChild, startChild } from './support/child-process.js';
import type { ChildResult } from './support/child-process.js';
import {
  ADAPTER,
  LOOSE_LIMITS,
  T0,
  auditTrail,
  currentAlias,
  makeWorld,
  patchCount,
  prepare,
  startTestSimulator,
} from './support/world.js';
import type { Prepared, World } from './support/world.js';

let sim: RunningSimulator;
let world: World;
let child: { script: string; remove(): void };

beforeAll(async () => {
  [sim, child] = await Promise.all([startTestSimulator(), buildChild()]);
}, 60_000);
afterAll(async () => {
  child.remove();
  await sim.close();
});
beforeEach(async () => {
  sim.control.resetData();
  sim.control.clearFaults();
  sim.control.resetCounters();
  world = await makeWorld(sim);
});
afterEach(() => {
  world.cleanup();
});

const adapter = ADAPTER;

function configFor(op: 'execute' | 'rollback', p: Prepared, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    dir: world.dir,
    anchorFile: world.anchorFile,
    masterKeyHex: Buffer.from(world.masterKey).toString('hex'),
    nowMs: T0,
    simUrl: sim.url,
    apiKey: sim.apiKey,
    op,
    contractId: p.contract.contract_id,
    intent: p.intent,
    rateLimits: LOOSE_LIMITS,
    ...extra,
  };
}

async function runKilled(op: 'execute' | 'rollback', p: Prepared, crashAt: CrashPoint, crashOps: readonly string[]): Promise<ChildResult> {
  const c = startChild(child.script, configFor(op, p, { crashAt, crashOps }));
  c.process.stdin?.end();
  return c.done;
}

describe('crashes around the send: after restart the contract is in RECONCILIATION and nothing is resent', () => {
  const FORWARD_OUTCOMES = ['markExecutionVerified', 'markExecutionFailed', 'markExecutionAmbiguous'];
  const ROLLBACK_OUTCOMES = ['markRollbackVerified', 'markRollbackFailed', 'markRollbackAmbiguous'];
  const cases: readonly [name: string, op: 'execute' | 'rollback', point: CrashPoint, ops: readonly string[], sent: 0 | 1][] = [
    ['forward: EXECUTING committed, before the send', 'execute', 'after-anchor', ['beginExecution'], 0],
    ['forward: after the send, before the outcome transaction', 'execute', 'before-begin', FORWARD_OUTCOMES, 1],
    ['forward: after the send, outcome written but not committed', 'execute', 'after-write-before-commit', FORWARD_OUTCOMES, 1],
    ['rollback: ROLLING_BACK committed, before the send', 'rollback', 'after-anchor', ['beginRollback'], 0],
    ['rollback: after the send, before the outcome transaction', 'rollback', 'before-begin', ROLLBACK_OUTCOMES, 1],
  ];
  for (const [name, op, point, ops, sent] of cases) {
    it(name, async () => {
      const p = await prepare(world, 'LAN_SERVERS', 'changed by a process that dies');
      if (op === 'rollback') {
        expect((await world.executor.execute(p.contract.contract_id, { adapter, intent: p.intent })).state).toBe('VERIFIED');
        sim.control.resetCounters();
      }
      const result = await runKilled(op, p, point, ops);
      expect(result.signal).toBe('SIGKILL');
      expect(patchCount(sim)).toBe(sent);
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
      expect(patchCount(sim)).toBe(sent);
      const obs = await restarted.observeReconciliationTarget(c.contract_id, { adapter });
      expect(obs).toMatchObject({ origin: inFlight, observedLifecycleLocator: 0, locatorMatches: true });
      expect(patchCount(sim)).toBe(sent);
    });
  }
});

describe('races between processes', () => {
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

  it('8 processes roll back one VERIFIED contract: exactly one rollback send', async () => {
    const p = await prepare(world, 'WEB_PORTS', 'raced rollback');
    expect((await world.executor.execute(p.contract.contract_id, { adapter, intent: p.intent })).state).toBe('VERIFIED');
    sim.control.resetCounters();
    const results = await race(Array.from({ length: 8 }, () => configFor('rollback', p)));
    const outcomes = results.filter((r) => r.outcome !== undefined).map((r) => r.outcome as { state: string; sends: number });
    const refused = results.filter((r) => r.refused !== undefined).map((r) => r.refused as string);
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]).toMatchObject({ state: 'ROLLED_BACK', sends: 1 });
    expect(refused).toHaveLength(7);
    for (const code of refused) expect(['STALE_STATE', 'WRONG_STATE', 'TARGET_RESERVED']).toContain(code);
    expect(patchCount(sim)).toBe(1);
    expect((await currentAlias(world.readClient, 'WEB_PORTS'))?.descr).toBe('HTTP and HTTPS');
    expect(world.store.load(p.contract.contract_id).state).toBe('ROLLED_BACK');
    expect(world.store.verifyAuditChain()).toEqual({ ok: true });
  });

  it('rollback races execute on the same target: one mutation, never a second', async () => {
    const a = await prepare(world, 'WEB_PORTS', 'first change');
    expect((await world.executor.execute(a.contract.contract_id, { adapter, intent: a.intent })).state).toBe('VERIFIED');
    const b = await prepare(world, 'WEB_PORTS', 'second change');
    sim.control.resetCounters();
    const configs = [0, 1].flatMap(() => [configFor('rollback', a), configFor('execute', b)]);
    const results = await race(configs);
    const outcomes = results.filter((r) => r.outcome !== undefined).map((r) => r.outcome as { operation: string; state: string; sends: number });
    const totalSends = outcomes.reduce((n, o) => n + o.sends, 0);
    expect(totalSends).toBe(1);
    expect(patchCount(sim)).toBe(1);
    const winner = outcomes.find((o) => o.sends === 1);
    const descr = (await currentAlias(world.readClient, 'WEB_PORTS'))?.descr;
    if (winner?.operation === 'rollback') {
      expect(winner.state).toBe('ROLLED_BACK');
      expect(descr).toBe('HTTP and HTTPS');
    } else {
      expect(winner).toMatchObject({ operation: 'execute', state: 'VERIFIED' });
      expect(descr).toBe('second change');
    }
    expect(world.store.verifyAuditChain()).toEqual({ ok: true });
  });
});
