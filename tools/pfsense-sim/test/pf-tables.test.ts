import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../src/index.js';
import { api, control } from './helpers.js';

// The demo office: BLOCKLIST (network, id 4) feeds the enabled WAN block rule (index 0); LAN_SERVERS is named
// only by a disabled rule (index 16), so pf has no table for it after a reload.
let sim: RunningSimulator;
beforeEach(async () => {
  sim = await startSimulator({ seed: 'office' });
});
afterEach(async () => sim.close());

async function table(name: string): Promise<unknown> {
  const c = api(sim.url, sim.apiKey);
  const tables = (await c.get('/api/v2/diagnostics/tables')).env.data as { name: string; entries: string[] }[];
  return tables.find((t) => t.name === name)?.entries ?? null;
}

const BLOCK = { id: 4, name: 'BLOCKLIST', address: ['198.51.100.128/25', '192.0.2.0/24', '203.0.113.7/32'] };
const DETAIL = ['a', 'b', 'c'];

describe('pf tables follow the aliases that enabled rules use, on apply', () => {
  it('a PATCH with apply rebuilds the table (a /32 printed as pf prints it); without apply it stays pending', async () => {
    const c = api(sim.url, sim.apiKey);
    expect((await c.patch('/api/v2/firewall/alias', { ...BLOCK, detail: DETAIL })).status).toBe(200);
    expect((await c.get('/api/v2/firewall/apply')).env.data).toEqual({ applied: false, pending_subsystems: ['aliases'] });
    expect(await table('BLOCKLIST')).toEqual(['198.51.100.128/25', '192.0.2.0/24']);
    await c.post('/api/v2/firewall/apply', {});
    expect(await table('BLOCKLIST')).toEqual(['198.51.100.128/25', '192.0.2.0/24', '203.0.113.7']);
    // A table nothing enabled uses is gone after the reload; the others (bogons) stay.
    expect(await table('LAN_SERVERS')).toBeNull();
    expect(await table('bogons')).not.toBeNull();
  });

  it('apply: true in the PATCH applies at once', async () => {
    const c = api(sim.url, sim.apiKey);
    await c.patch('/api/v2/firewall/alias', { ...BLOCK, detail: DETAIL, apply: true });
    expect((await c.get('/api/v2/firewall/apply')).env.data).toEqual({ applied: true, pending_subsystems: [] });
    expect(await table('BLOCKLIST')).toEqual(['198.51.100.128/25', '192.0.2.0/24', '203.0.113.7']);
  });
});

describe('the faults of an applied write', () => {
  it('apply lost: the config is written, the change stays pending, the table unchanged', async () => {
    const c = api(sim.url, sim.apiKey);
    sim.control.setApplyMode({ mode: 'lost' });
    await c.patch('/api/v2/firewall/alias', { ...BLOCK, detail: DETAIL, apply: true });
    expect(sim.control.pendingSubsystems()).toEqual(['aliases']);
    expect(await table('BLOCKLIST')).toEqual(['198.51.100.128/25', '192.0.2.0/24']);
    expect(((await c.get('/api/v2/firewall/alias?id=4')).env.data as { address: string[] }).address).toEqual(BLOCK.address);
  });

  it('stale table: nothing pending, but pf still holds the old entries', async () => {
    const c = api(sim.url, sim.apiKey);
    sim.control.setApplyMode({ mode: 'stale-table' });
    await c.patch('/api/v2/firewall/alias', { ...BLOCK, detail: DETAIL, apply: true });
    expect(sim.control.pendingSubsystems()).toEqual([]);
    expect(await table('BLOCKLIST')).toEqual(['198.51.100.128/25', '192.0.2.0/24']);
  });

  it('a delayed apply leaves the change pending until the reload ran', async () => {
    const c = api(sim.url, sim.apiKey);
    sim.control.setApplyMode({ mode: 'sync', delayMs: 50 });
    await c.patch('/api/v2/firewall/alias', { ...BLOCK, detail: DETAIL, apply: true });
    expect(sim.control.pendingSubsystems()).toEqual(['aliases']);
    await expect.poll(() => sim.control.pendingSubsystems(), { timeout: 5000 }).toEqual([]);
    expect(await table('BLOCKLIST')).toEqual(['198.51.100.128/25', '192.0.2.0/24', '203.0.113.7']);
  });

  it('a foreign pending change and a rule edited behind the API, in-process and over /__sim/', async () => {
    const c = api(sim.url, sim.apiKey);
    const ctl = control(sim.url, sim.apiKey);
    expect((await ctl('POST', '/__sim/pending', { subsystem: 'filter' })).json).toEqual({ pending_subsystems: ['filter'] });
    expect((await c.get('/api/v2/firewall/apply')).env.data).toEqual({ applied: false, pending_subsystems: ['filter'] });
    expect((await ctl('POST', '/__sim/records', { path: '/api/v2/firewall/rules', index: 0, fields: { type: 'pass' } })).status).toBe(200);
    const rules = (await c.get('/api/v2/firewall/rules')).env.data as { type: string }[];
    expect(rules[0]?.type).toBe('pass');
    expect((await ctl('POST', '/__sim/records', { path: '/api/v2/firewall/rules', index: 999, fields: {} })).status).toBe(404);
    expect((await ctl('POST', '/__sim/apply-mode', { mode: 'never' })).status).toBe(400);
    // Reloading now also activates the foreign change: exactly why the product checks before it applies.
    await c.post('/api/v2/firewall/apply', {});
    expect(sim.control.pendingSubsystems()).toEqual([]);
    sim.control.editRecord('/api/v2/firewall/aliases', 4, { address: ['192.0.2.0/24'], detail: ['b'] });
    expect(((await c.get('/api/v2/firewall/alias?id=4')).env.data as { address: string[] }).address).toEqual(['192.0.2.0/24']);
  });
});
