// Config-history evidence (docs/DESIGN.md §4): capture before the transition (a failed capture is a plain
// refusal), corroborate after the send, record value-free facts. Against the simulator over loopback.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSimulator } from '@pfsense-mcp/pfsense-sim';
import { ALIAS_WRITE_POLICY } from '@pfsense-mcp/policy';
import { simulatorTransport } from '@pfsense-mcp/test-support';
import type { Transport } from '@pfsense-mcp/transports';
import { WriteApiClient, WriteEndpoints } from '@pfsense-mcp/write-client';
import {
  CONFIG_HISTORY_REVISIONS_PATH,
  ExecutorRefusalError,
  MutationExecutor,
  classifyConfigHistory,
  configHistoryEvidenceDigest,
  configHistoryRecordOf,
} from '../src/index.js';
import type { ConfigRevision } from '../src/index.js';
import { SqliteRecoveryContractStore } from '@pfsense-mcp/contract-store';
import { RestApiClient } from '@pfsense-mcp/pfsense-read';
import { closeAfterEach, sim, useExecutorWorld, world } from './support/executor-suite.js';
import { ADAPTER, ALIASES, ALIASES_PATH, ALIAS_PATH, T0, adminWrite, makeWorld, patchCount, prepare } from './support/world.js';

const REVISIONS = CONFIG_HISTORY_REVISIONS_PATH;
useExecutorWorld();

const adapter = ADAPTER;

/** A read transport that runs `hook` once right after the n-th GET of the revisions (1-based). */
class HookedRead implements Transport {
  #revisionReads = 0;
  constructor(
    private readonly inner: Transport,
    private readonly after: number,
    private readonly hook: () => Promise<void>,
  ) {}
  async request(...args: Parameters<Transport['request']>): ReturnType<Transport['request']> {
    const response = await this.inner.request(...args);
    if (args[1] === REVISIONS) {
      this.#revisionReads += 1;
      if (this.#revisionReads === this.after) await this.hook();
    }
    return response;
  }
}

function readTransport(opts: { responseTimeoutMs?: number } = {}): Transport {
  const t = simulatorTransport(sim, opts);
  closeAfterEach(() => t.close());
  return t;
}

function refusalGates(contractId: string): string[] {
  return world.store
    .listAuditEvents({ contractId, limit: 100 })
    .filter((e) => e.kind === 'refusal')
    .map((e) => String(e.event));
}

async function revisions(): Promise<ConfigRevision[]> {
  return (await world.readClient.read(REVISIONS)).data as ConfigRevision[];
}

describe('capture before the transition', () => {
  const cases = [
    { name: '5xx', fault: { kind: '5xx-after-apply', status: 503 }, failureClass: 'HTTP_5XX' },
    { name: 'timeout', fault: { kind: 'timeout' }, failureClass: 'TIMEOUT' },
    { name: 'malformed JSON', fault: { kind: 'malformed-json' }, failureClass: 'MALFORMED' },
    { name: 'oversized body', fault: { kind: 'oversized-body', bytes: 2 * 1024 * 1024 }, failureClass: 'TOO_LARGE' },
  ] as const;
  for (const c of cases) {
    it(`a ${c.name} capture refuses execute: no transition, zero PATCH, audited; the same contract runs once history reads`, async () => {
      const executor = world.executorWith(world.writeProxy, { read: readTransport({ responseTimeoutMs: 400 }) });
      const p = await prepare(world, 'WEB_PORTS', 'Web ports — reviewed');
      sim.control.setFault({ route: REVISIONS, method: 'GET', ...c.fault } as never);
      const refused = await executor.execute(p.contract.contract_id, { adapter, intent: p.intent }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(refused).toBeInstanceOf(ExecutorRefusalError);
      expect(refused).toMatchObject({ code: 'CONFIG_HISTORY_UNAVAILABLE', reason: c.failureClass, sends: 0 });
      const still = world.store.load(p.contract.contract_id);
      expect(still.state).toBe('PREPARED');
      expect(still.state_version).toBe(p.contract.state_version);
      expect(patchCount(sim)).toBe(0);
      expect(world.writeProxy.sendCount).toBe(0);
      expect(refusalGates(p.contract.contract_id)).toEqual([`CONFIG_HISTORY_${c.failureClass}`]);

      sim.control.clearFaults();
      const out = await executor.execute(p.contract.contract_id, { adapter, intent: p.intent });
      expect(out.state).toBe('VERIFIED');
      expect(out.configHistory?.class).toBe('ONE');
      expect(patchCount(sim)).toBe(1);
    });
  }

  it("a history that is not pfrest's shape is MALFORMED: refused, zero PATCH", async () => {
    const bad = await startSimulator({
      data: { [ALIASES_PATH]: [...ALIASES], [REVISIONS]: [{ time: 'yesterday', description: 1 }] },
      now: () => new Date(T0),
    });
    const w = await makeWorld(bad);
    try {
      const p = await prepare(w, 'WEB_PORTS', 'x');
      await expect(w.executor.execute(p.contract.contract_id, { adapter, intent: p.intent })).rejects.toMatchObject({
        code: 'CONFIG_HISTORY_UNAVAILABLE',
        reason: 'MALFORMED',
      });
      expect(bad.control.count(ALIAS_PATH, 'PATCH')).toBe(0);
      expect(w.store.load(p.contract.contract_id).state).toBe('PREPARED');
    } finally {
      w.cleanup();
      await bad.close();
    }
  });

  it('a failed capture refuses rollback before ROLLING_BACK (no ROLLBACK_FAILED); rollback runs once history reads', async () => {
    const p = await prepare(world, 'LAN_SERVERS', 'Servers — new');
    expect((await world.executor.execute(p.contract.contract_id, { adapter, intent: p.intent })).state).toBe('VERIFIED');
    const verified = world.store.load(p.contract.contract_id);
    sim.control.setFault({ route: REVISIONS, method: 'GET', kind: '5xx-after-apply', status: 502 });
    await expect(world.executor.rollback(p.contract.contract_id, { adapter })).rejects.toMatchObject({
      code: 'CONFIG_HISTORY_UNAVAILABLE',
      reason: 'HTTP_5XX',
    });
    expect(world.store.load(p.contract.contract_id).state_version).toBe(verified.state_version);
    expect(patchCount(sim)).toBe(1);
    sim.control.clearFaults();
    const back = await world.executor.rollback(p.contract.contract_id, { adapter });
    expect(back.state).toBe('ROLLED_BACK');
    expect(patchCount(sim)).toBe(2);
    // Each send keeps its own corroboration: the rollback's does not replace the forward's.
    const kept = world.store.load(p.contract.contract_id);
    expect(kept.rollback_config_history).toEqual(configHistoryRecordOf(back.configHistory!));
    expect(kept.execution_config_history).toMatchObject({ class: 'ONE', change_kind: 'ALIAS_UPDATE' });
  });
});

describe('corroboration after the send', () => {
  it("exactly one new revision with pfrest's alias-update note → ONE; the audit row carries the evidence digest", async () => {
    const p = await prepare(world, 'WEB_PORTS', 'Web ports — reviewed');
    const before = await revisions();
    const out = await world.executor.execute(p.contract.contract_id, { adapter, intent: p.intent });
    expect(out.configHistory).toEqual({
      version: 1,
      class: 'ONE',
      reason: null,
      capturedCount: before.length,
      capturedNewestTime: before[0]!.time,
      newCount: 1,
      newestTime: T0 / 1000,
      oldestNewTime: T0 / 1000,
      newTimes: [T0 / 1000],
      descriptionsDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
      changeNote: 'Modified Firewall Alias via API',
    });
    const row = world.store.listAuditEvents({ contractId: p.contract.contract_id, limit: 100 }).find((e) => e.to_state === 'VERIFIED');
    expect(row?.evidence_digest).toBe(configHistoryEvidenceDigest(out.configHistory!));
    // The contract keeps the same facts (snake case), under the forward send's field.
    const kept = world.store.load(p.contract.contract_id);
    expect(kept.execution_config_history).toEqual(configHistoryRecordOf(out.configHistory!));
    expect(kept.rollback_config_history).toBeUndefined();
  });

  it('an unrelated change between capture and send → SEVERAL (more than one new revision)', async () => {
    const p = await prepare(world, 'WEB_PORTS', 'Web ports — reviewed');
    const hooked = new HookedRead(readTransport(), 1, () => adminWrite(sim, 'POST', { name: 'UNRELATED', type: 'port', address: ['22'] }));
    const out = await world.executorWith(world.writeProxy, { read: hooked }).execute(p.contract.contract_id, { adapter, intent: p.intent });
    // Evidence never decides: the re-read verified the write, so the contract is VERIFIED.
    expect(out.state).toBe('VERIFIED');
    expect(out.configHistory).toMatchObject({ class: 'SEVERAL', newCount: 2, changeNote: null, reason: null });
  });

  it("rotation at pfSense's limit of 30: 29 new entries keep the anchor (SEVERAL), 30 drop it (UNKNOWN)", async () => {
    const burst = (n: number) => async (): Promise<void> => {
      for (let i = 0; i < n; i += 1) await adminWrite(sim, 'PATCH', { id: 3, descr: `other ${i}` });
    };
    const history = await revisions();
    expect(history.length).toBeLessThan(29); // the seeded history leaves room, so the boundary is the rotation
    const p1 = await prepare(world, 'WEB_PORTS', 'first');
    const keep = await world
      .executorWith(world.writeProxy, { read: new HookedRead(readTransport(), 1, burst(28)) })
      .execute(p1.contract.contract_id, { adapter, intent: p1.intent });
    expect(keep.configHistory).toMatchObject({ class: 'SEVERAL', newCount: 29 });

    // Back to the seeded history, so the anchor is again the seeded newest entry (the simulator's clock is fixed).
    sim.control.resetData();
    const p2 = await prepare(world, 'LAN_SERVERS', 'second');
    const lost = await world
      .executorWith(world.writeProxy, { read: new HookedRead(readTransport(), 1, burst(29)) })
      .execute(p2.contract.contract_id, { adapter, intent: p2.intent });
    expect(lost.state).toBe('VERIFIED');
    expect(lost.configHistory).toMatchObject({ class: 'UNKNOWN', reason: 'CAPTURED_ENTRY_GONE', newCount: null });
    expect((await revisions()).length).toBe(30);
  });

  it("a write in the captured entry's second → UNKNOWN (EQUAL_TIMESTAMPS)", async () => {
    // The simulator's clock is fixed at T0: an earlier write at T0 becomes the anchor, and ours lands in the same second.
    await adminWrite(sim, 'PATCH', { id: 3, descr: 'earlier today' });
    const p = await prepare(world, 'WEB_PORTS', 'same second');
    const out = await world.executor.execute(p.contract.contract_id, { adapter, intent: p.intent });
    expect(out.configHistory).toMatchObject({ class: 'UNKNOWN', reason: 'EQUAL_TIMESTAMPS' });
  });

  it('a failed read after the send → UNKNOWN (READ_FAILED); the outcome is still decided by the re-read', async () => {
    const p = await prepare(world, 'WEB_PORTS', 'read fails after');
    const hooked = new HookedRead(readTransport(), 1, async () => {
      sim.control.setFault({ route: REVISIONS, method: 'GET', kind: '5xx-after-apply', status: 500 });
    });
    const out = await world.executorWith(world.writeProxy, { read: hooked }).execute(p.contract.contract_id, { adapter, intent: p.intent });
    expect(out.state).toBe('VERIFIED');
    expect(out.configHistory).toMatchObject({ class: 'UNKNOWN', reason: 'READ_FAILED' });
  });

  it('response lost after apply → RECONCILIATION carrying "exactly one new revision"; no description in the audit', async () => {
    const p = await prepare(world, 'WEB_PORTS', 'Web ports — lost response');
    sim.control.setFault({ route: ALIAS_PATH, method: 'PATCH', kind: 'drop-response-after-apply' });
    const out = await world.executor.execute(p.contract.contract_id, { adapter, intent: p.intent });
    expect(out.state).toBe('RECONCILIATION');
    expect(out.configHistory).toMatchObject({ class: 'ONE', newCount: 1, changeNote: 'Modified Firewall Alias via API' });
    const events = world.store.listAuditEvents({ contractId: p.contract.contract_id, limit: 100 });
    const row = events.find((e) => e.to_state === 'RECONCILIATION');
    expect(row?.evidence_digest).toBe(configHistoryEvidenceDigest(out.configHistory!));
    // A restarted process (a second store opened on the same files, a new executor) observes the target and
    // gets the corroboration from the contract record — read-only, zero sends.
    const reopened = await SqliteRecoveryContractStore.open(world.options());
    closeAfterEach(() => reopened.close());
    const restarted = new MutationExecutor({
      store: reopened,
      writeClient: new WriteApiClient(world.writeProxy),
      readClient: new RestApiClient(readTransport()),
      policy: ALIAS_WRITE_POLICY,
      clock: () => world.clock.now,
    });
    const observation = await restarted.observeReconciliationTarget(p.contract.contract_id, { adapter });
    expect(observation.configHistory).toEqual(configHistoryRecordOf(out.configHistory!));
    expect(observation.configHistory).toMatchObject({ class: 'ONE', new_count: 1, new_times: [T0 / 1000], change_kind: 'ALIAS_UPDATE' });
    expect(patchCount(sim)).toBe(1);
    // Nothing of a revision description but its digest: not in the audit rows, not in the store's files.
    const newest = (await revisions())[0]!.description;
    expect(newest).toContain('Modified Firewall Alias via API');
    const audit = JSON.stringify(world.store.listAuditEvents({ limit: 1000 }));
    for (const needle of [newest, 'Firewall Alias via API', 'api-key@', '127.0.0.1', 'Local Database']) expect(audit).not.toContain(needle);
    for (const f of readdirSync(world.dir)) {
      const bytes = readFileSync(join(world.dir, f));
      for (const needle of ['Firewall Alias via API', 'api-key@127.0.0.1']) expect(bytes.includes(Buffer.from(needle))).toBe(false);
    }
  });
});

describe("least privilege: the write path's rows of the generated privileges table", () => {
  interface Row {
    key: 'write' | 'read';
    method: string;
    path: string;
    privileges: string[];
  }
  const table = JSON.parse(
    readFileSync(join(import.meta.dirname, '..', '..', '..', 'apps', 'mcp-server', 'docs', 'pfrest-privileges.json'), 'utf8'),
  ) as { write_path: Row[] };
  const rows = table.write_path;
  const privs = (key: Row['key']) => rows.filter((r) => r.key === key).flatMap((r) => r.privileges);

  it("lists the revisions GET among the READ key's write-path rows", () => {
    expect(rows.map((r) => `${r.key} ${r.method} ${r.path}`)).toContain(`read GET ${REVISIONS}`);
  });

  it('exactly those privileges suffice; a READ key without the revisions row is refused before the transition', async () => {
    const WRITE = 'write-path-write-key-0123456789abcdef';
    const READ = 'write-path-read-key-0123456789abcdef0';
    const READ_NO_HISTORY = 'write-path-read-key-without-history-01';
    const lp = await startSimulator({
      data: { [ALIASES_PATH]: [...ALIASES] },
      now: () => new Date(T0),
      credentials: [
        { auth: 'key', secret: WRITE, privileges: privs('write') },
        { auth: 'key', secret: READ, privileges: privs('read') },
        { auth: 'key', secret: READ_NO_HISTORY, privileges: privs('read').filter((p) => !p.includes('config-history')) },
      ],
    });
    const w = await makeWorld(lp);
    const t = (apiKey: string): Transport => {
      const tr = simulatorTransport(lp, { apiKey });
      closeAfterEach(() => tr.close());
      return tr;
    };
    try {
      const p = await prepare(w, 'WEB_PORTS', 'least privilege');
      await expect(
        w.executorWith(t(WRITE), { read: t(READ_NO_HISTORY) }).execute(p.contract.contract_id, { adapter, intent: p.intent }),
      ).rejects.toMatchObject({ code: 'CONFIG_HISTORY_UNAVAILABLE', reason: 'HTTP_ERROR' });
      expect(lp.control.count(ALIAS_PATH, 'PATCH')).toBe(0);
      const out = await w.executorWith(t(WRITE), { read: t(READ) }).execute(p.contract.contract_id, { adapter, intent: p.intent });
      expect(out).toMatchObject({ state: 'VERIFIED', configHistory: { class: 'ONE' } });
    } finally {
      w.cleanup();
      await lp.close();
    }
  });
});

describe('global restore is never offered', () => {
  it('no write endpoint reaches the config history, and every request to it is a GET', async () => {
    for (const e of Object.values(WriteEndpoints)) expect(e.path).not.toContain('config_history');
    const p = await prepare(world, 'WEB_PORTS', 'restore check');
    await world.executor.execute(p.contract.contract_id, { adapter, intent: p.intent });
    await world.executor.rollback(p.contract.contract_id, { adapter });
    const hits = Object.entries(sim.control.counters()).filter(([k]) => k.includes('config_history'));
    expect(hits.length).toBeGreaterThan(0);
    for (const [key] of hits) expect(key.startsWith('GET ')).toBe(true);
  });

  it('no product source names a config-history restore or another method on those endpoints', () => {
    const root = join(import.meta.dirname, '..', '..', '..');
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name === 'test' || entry.name.startsWith('.')) continue;
        const full = join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (/\.(ts|mts|mjs|js)$/.test(entry.name)) {
          const text = readFileSync(full, 'utf8');
          if (/config_history\/(restore|revision\b[^s])/.test(text) || /config_history[^\n]*['"](POST|PUT|PATCH|DELETE)['"]/.test(text))
            offenders.push(full);
        }
      }
    };
    for (const top of ['libs', 'apps']) walk(join(root, top));
    expect(offenders).toEqual([]);
  });
});

describe('classifyConfigHistory (pure)', () => {
  const r = (time: number, description: string, filesize = 1000): ConfigRevision => ({
    id: 0,
    time,
    description,
    version: '24.0',
    filesize,
  });
  const UPDATE = 'admin@10.0.0.5:  Modified Firewall Alias via API';
  const base = [r(100, 'a'), r(90, 'b')];

  it('NONE, ONE, SEVERAL, and one entry that is not an alias update', () => {
    expect(classifyConfigHistory(base, base)).toMatchObject({ class: 'NONE', newCount: 0 });
    expect(classifyConfigHistory(base, [r(101, UPDATE), ...base])).toMatchObject({ class: 'ONE', newCount: 1, newestTime: 101 });
    expect(classifyConfigHistory(base, [r(103, UPDATE), r(102, 'x'), ...base])).toMatchObject({
      class: 'SEVERAL',
      newCount: 2,
      newestTime: 103,
      oldestNewTime: 102,
    });
    expect(classifyConfigHistory(base, [r(101, 'someone else'), ...base])).toMatchObject({
      class: 'UNKNOWN',
      reason: 'NOT_AN_ALIAS_UPDATE',
      newCount: 1,
    });
  });

  it('the index is ignored; the anchor is matched on time, description, version and filesize', () => {
    const shifted = [r(101, UPDATE), { ...base[0]!, id: 1 }, { ...base[1]!, id: 2 }];
    expect(classifyConfigHistory(base, shifted)).toMatchObject({ class: 'ONE' });
    expect(classifyConfigHistory(base, [r(101, UPDATE), r(100, 'a', 999), base[1]!])).toMatchObject({
      class: 'UNKNOWN',
      reason: 'CAPTURED_ENTRY_GONE',
    });
  });

  it('equal timestamps, a listed-twice anchor and out-of-order entries are UNKNOWN; an empty capture counts all', () => {
    expect(classifyConfigHistory(base, [r(100, UPDATE), ...base])).toMatchObject({ class: 'UNKNOWN', reason: 'EQUAL_TIMESTAMPS' });
    expect(classifyConfigHistory(base, [r(99, UPDATE), ...base])).toMatchObject({ class: 'UNKNOWN', reason: 'OUT_OF_ORDER' });
    expect(classifyConfigHistory([base[0]!, base[0]!], [base[0]!])).toMatchObject({ class: 'UNKNOWN', reason: 'AMBIGUOUS_ANCHOR' });
    expect(classifyConfigHistory(base, [r(101, UPDATE), base[0]!, base[0]!])).toMatchObject({
      class: 'UNKNOWN',
      reason: 'AMBIGUOUS_ANCHOR',
    });
    expect(classifyConfigHistory([], [r(5, UPDATE)])).toMatchObject({ class: 'ONE', capturedCount: 0, capturedNewestTime: null });
  });

  it('the descriptions digest changes with any description and the evidence holds no description', () => {
    const a = classifyConfigHistory(base, [r(101, UPDATE), ...base]);
    const b = classifyConfigHistory(base, [r(101, UPDATE.replace('10.0.0.5', '10.0.0.6')), ...base]);
    expect(a.descriptionsDigest).not.toBe(b.descriptionsDigest);
    expect(JSON.stringify(a)).not.toContain('admin@');
    expect(Object.isFrozen(a)).toBe(true);
  });
});
