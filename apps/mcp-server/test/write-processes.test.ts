// Real processes on one write directory: two built servers asking for the same change at once, and a server
// stopped (SIGTERM, stdin EOF) or killed (SIGKILL) while its one PATCH is in flight at the simulator.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALIAS_PATH, useBuiltWriteWorld } from './support/built-write-world.js';
import { INITIALIZE, collect, spawnBuilt } from './support/built-server.js';
import { approve } from './support/host-setup.js';
import { until } from './support/until.js';
import { WRITE_TOOL, type WriteResult } from './support/write-result.js';

const LATENCY_MS = 2_500;
// Each test spawns the server, the signer and the admin program several times (about a second per process
// start on a loaded machine); the bound is on process starts, not on anything the product waits for.
const PROCESS_TEST_TIMEOUT_MS = 180_000;

const world = useBuiltWriteWorld([
  { name: 'A_RACE', type: 'host', descr: 'race', address: ['10.0.0.1'], detail: ['a'] },
  { name: 'B_TERM', type: 'host', descr: 'term', address: ['10.0.0.2'], detail: ['b'] },
  { name: 'C_EOF', type: 'host', descr: 'eof', address: ['10.0.0.3'], detail: ['c'] },
  { name: 'D_KILL', type: 'host', descr: 'kill', address: ['10.0.0.4'], detail: ['d'] },
]);
const host = () => world.host();
const serve = world.serve;
const call = world.call;
/** Authorization and confirmation signed and installed: the next call runs the executor. */
const confirmed = world.confirm;
const patches = world.patches;

describe('two server processes on one write directory', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('asking for the same change at once: one operation, one contract, at most one PATCH', async () => {
    const h = host();
    const [a, b] = await Promise.all([serve(h), serve(h)]);
    const args = { alias_name: 'A_RACE', description: 'raced' };
    const before = patches();

    const [ra, rb] = await Promise.all([call(a, args), call(b, args)]);
    expect(ra.status).toBe('requested');
    expect(rb.status).toBe('requested');
    expect(ra.operation_id).toBe(rb.operation_id);
    approve(h, ra.pending_request ?? '', 'plan-authorization');

    // Both present the one authorization at once: it is consumed once, one contract exists.
    const [pa, pb] = await Promise.all([call(a, args), call(b, args)]);
    const contracts = new Set([pa, pb].filter((r) => r.status !== 'refused').map((r) => r.contract_id));
    expect(contracts.size).toBe(1);
    const [ca, cb] = await Promise.all([call(a, args), call(b, args)]);
    expect(ca).toMatchObject({ status: 'awaiting_confirmation', operation_id: ra.operation_id });
    expect(cb.contract_id).toBe(ca.contract_id);
    expect([...contracts][0]).toBe(ca.contract_id);
    approve(h, ca.pending_request ?? '', 'confirmation');

    // Both run the confirmed contract at once: one executor call sends, the other never does.
    const [ea, eb] = await Promise.all([call(a, args), call(b, args)]);
    expect(patches()).toBe(before + 1);
    expect([ea.status, eb.status]).toContain('verified');
    for (const r of [ea, eb]) expect(['verified', 'reconciliation_required', 'refused']).toContain(r.status);
    const [fa, fb] = await Promise.all([call(a, args), call(b, args)]);
    expect(fa).toMatchObject({ status: 'verified', contract_id: ca.contract_id });
    expect(fb).toMatchObject({ status: 'verified', contract_id: ca.contract_id });
    expect(patches()).toBe(before + 1);
  });
});

describe('shutdown with the write in flight', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('SIGTERM: the executor call finishes (its answer still reaches the client) before the process exits; stores closed, WAL checkpointed', async () => {
    const h = host();
    const s = await serve(h);
    const args = { alias_name: 'B_TERM', description: 'terminated gracefully' };
    await confirmed(h, s, args);
    world.sim.control.setFault({ route: ALIAS_PATH, method: 'PATCH', kind: 'latency', ms: LATENCY_MS, times: 1 });
    const before = patches();
    const answer = call(s, args);
    await until(() => patches() === before + 1);
    const signalledAt = Date.now();
    process.kill(s.pid, 'SIGTERM');
    const result = await answer.catch((e: unknown) => {
      throw new Error(`${String(e)}\n${s.stderr()}`);
    });
    expect(result.status).toBe('verified');
    expect(await s.gone()).toBe(true);
    expect(Date.now() - signalledAt).toBeLessThan(40_000);
    expect(s.stderr()).toContain('"event":"write_runtime_closed"');
    expect(s.stderr()).toContain('"event":"server_stopped"');
    for (const wal of ['contracts.sqlite-wal', 'consumption.sqlite-wal']) {
      const path = join(h.dir, 'store', wal);
      expect(existsSync(path) ? statSync(path).size : 0, wal).toBe(0);
    }
    const next = await serve(h);
    expect(await call(next, args)).toMatchObject({ status: 'verified', contract_id: result.contract_id });
    expect(patches()).toBe(before + 1);
  });

  it('stdin EOF right after the call: the call is answered, then the server exits 0', async () => {
    const h = host();
    const s = await serve(h);
    const args = { alias_name: 'C_EOF', description: 'eof after the call' };
    await confirmed(h, s, args);
    await s.close();
    expect(await s.gone()).toBe(true);
    world.sim.control.setFault({ route: ALIAS_PATH, method: 'PATCH', kind: 'latency', ms: LATENCY_MS, times: 1 });
    const before = patches();
    const child = spawnBuilt(world.env(h));
    const done = collect(child);
    child.stdin.write(`${INITIALIZE}\n`);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: WRITE_TOOL, arguments: args } })}\n`,
    );
    await until(() => patches() === before + 1, 60_000);
    child.stdin.end();
    const run = await done;
    expect(run.code).toBe(0);
    const reply = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id?: number; result?: { structuredContent?: WriteResult } })
      .find((m) => m.id === 2);
    expect(reply?.result?.structuredContent?.status).toBe('verified');
    expect(patches()).toBe(before + 1);
  });

  it('SIGKILL with the PATCH in flight: the next start reconciles the contract (reconciliation_required with its request), never resends', async () => {
    const h = host();
    const s = await serve(h);
    const args = { alias_name: 'D_KILL', description: 'killed mid-flight' };
    const awaiting = await confirmed(h, s, args);
    world.sim.control.setFault({ route: ALIAS_PATH, method: 'PATCH', kind: 'latency', ms: LATENCY_MS, times: 1 });
    const before = patches();
    const answer = call(s, args).catch(() => null);
    await until(() => patches() === before + 1);
    process.kill(s.pid, 'SIGKILL');
    expect(await s.gone()).toBe(true);
    expect(await answer).toBeNull();
    await new Promise((r) => setTimeout(r, LATENCY_MS));

    const next = await serve(h);
    const r = await call(next, args);
    expect(r).toMatchObject({ status: 'reconciliation_required', contract_id: awaiting.contract_id });
    expect(r.pending_request).toMatch(/\/outbox\/reconciliation-request\./);
    expect(next.stderr()).toMatch(/"event":"write_runtime_ready"[^\n]*"reconciled":1/);
    expect(patches()).toBe(before + 1);
    approve(h, r.pending_request ?? '', 'reconciliation', 'APPLIED');
    expect(await call(next, args)).toMatchObject({ status: 'verified' });
    expect(patches()).toBe(before + 1);
  });
});
