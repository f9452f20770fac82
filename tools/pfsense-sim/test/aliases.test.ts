import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../src/index.js';
import { api } from './helpers.js';

let sim: RunningSimulator;
const fixedNow = new Date('2026-03-04T05:06:07Z');

beforeEach(async () => {
  sim = await startSimulator({
    now: () => fixedNow,
    data: {
      '/api/v2/firewall/aliases': [
        { id: 0, name: 'A_HOSTS', type: 'host', descr: 'first', address: ['10.0.0.1'], detail: ['one'] },
        { id: 1, name: 'B_NETS', type: 'network', descr: 'second', address: ['10.1.0.0/16'], detail: ['two'] },
        { id: 2, name: 'C_PORTS', type: 'port', descr: 'third', address: ['443'], detail: ['https'] },
      ],
    },
  });
});
afterEach(async () => sim.close());

describe('firewall alias endpoint', () => {
  it('reads one alias by id and requires the id', async () => {
    const c = api(sim.url, sim.apiKey);
    const one = await c.get('/api/v2/firewall/alias?id=1');
    expect(one.env.data).toEqual({ id: 1, name: 'B_NETS', type: 'network', descr: 'second', address: ['10.1.0.0/16'], detail: ['two'] });
    const missing = await c.get('/api/v2/firewall/alias');
    expect(missing.status).toBe(400);
    expect(missing.env.response_id).toBe('MODEL_REQUIRES_ID');
    const absent = await c.get('/api/v2/firewall/alias?id=9');
    expect(absent.status).toBe(404);
    expect(absent.env.response_id).toBe('MODEL_OBJECT_NOT_FOUND');
  });

  it('PATCH without apply marks aliases pending; POST firewall/apply applies', async () => {
    const c = api(sim.url, sim.apiKey);
    expect((await c.get('/api/v2/firewall/apply')).env.data).toEqual({ applied: true, pending_subsystems: [] });
    const patched = await c.patch('/api/v2/firewall/alias', { id: 0, descr: 'changed' });
    expect(patched.status).toBe(200);
    expect(patched.env.data).toMatchObject({ id: 0, name: 'A_HOSTS', descr: 'changed' });
    expect((await c.get('/api/v2/firewall/aliases')).env.data).toContainEqual(expect.objectContaining({ id: 0, descr: 'changed' }));
    expect((await c.get('/api/v2/firewall/apply')).env.data).toEqual({ applied: false, pending_subsystems: ['aliases'] });
    expect(sim.control.pendingSubsystems()).toEqual(['aliases']);
    const applied = await c.post('/api/v2/firewall/apply', {});
    expect(applied.status).toBe(200);
    expect((await c.get('/api/v2/firewall/apply')).env.data).toEqual({ applied: true, pending_subsystems: [] });
  });

  it('PATCH with apply:true applies at once', async () => {
    const c = api(sim.url, sim.apiKey);
    await c.patch('/api/v2/firewall/alias', { id: 2, descr: 'web', apply: true });
    expect((await c.get('/api/v2/firewall/apply')).env.data).toEqual({ applied: true, pending_subsystems: [] });
    expect((await c.get('/api/v2/firewall/alias?id=2')).env.data).toMatchObject({ descr: 'web' });
  });

  it('refuses renaming, bad types and bad choices with pfrest response ids', async () => {
    const c = api(sim.url, sim.apiKey);
    const cases: [unknown, number, string][] = [
      [{ id: 0, name: 'RENAMED' }, 400, 'FIELD_VALUE_CHANGED_WHEN_NOT_EDITABLE'],
      [{ id: 0, descr: 42 }, 400, 'FIELD_INVALID_TYPE'],
      [{ id: 0, type: 'url' }, 400, 'FIELD_INVALID_CHOICE'],
      [{ descr: 'no id' }, 400, 'MODEL_REQUIRES_ID'],
      [{ id: 7, descr: 'x' }, 404, 'MODEL_OBJECT_NOT_FOUND'],
    ];
    for (const [body, status, id] of cases) {
      const r = await c.patch('/api/v2/firewall/alias', body);
      expect([r.status, r.env.response_id, r.env.data]).toEqual([status, id, []]);
    }
    // Same name is not a change.
    expect((await c.patch('/api/v2/firewall/alias', { id: 0, name: 'A_HOSTS', descr: 'ok' })).status).toBe(200);
    expect(sim.control.pendingSubsystems()).toEqual(['aliases']);
  });

  it('creates aliases with unique, short names and fills missing details', async () => {
    const c = api(sim.url, sim.apiKey);
    const made = await c.post('/api/v2/firewall/alias', {
      name: 'NEW_HOSTS',
      type: 'host',
      address: ['10.9.9.9', 'nas.example.com'],
      detail: ['nine'],
    });
    expect(made.status).toBe(200);
    expect(made.env.data).toEqual({
      id: 3,
      name: 'NEW_HOSTS',
      type: 'host',
      descr: '',
      address: ['10.9.9.9', 'nas.example.com'],
      detail: ['nine', 'Entry added Wed, 04 Mar 2026 05:06:07 +0000'],
    });
    expect((await c.post('/api/v2/firewall/alias', { name: 'NEW_HOSTS', type: 'host' })).env.response_id).toBe('FIELD_MUST_BE_UNIQUE');
    const long = await c.post('/api/v2/firewall/alias', { name: 'X'.repeat(32), type: 'host' });
    expect(long.status).toBe(400);
    expect((await c.post('/api/v2/firewall/alias', { name: 'X'.repeat(31), type: 'host' })).status).toBe(200);
    expect((await c.post('/api/v2/firewall/alias', { name: 'BAD_NET', type: 'network', address: ['not an address'] })).status).toBe(400);
  });

  it('shifts ids after a delete, as pfrest array indices do', async () => {
    const c = api(sim.url, sim.apiKey);
    const gone = await c.del('/api/v2/firewall/alias?id=0');
    expect(gone.status).toBe(200);
    expect(gone.env.data).toMatchObject({ id: 0, name: 'A_HOSTS' });
    const list = (await c.get('/api/v2/firewall/aliases')).env.data as { id: number; name: string }[];
    expect(list.map((a) => [a.id, a.name])).toEqual([
      [0, 'B_NETS'],
      [1, 'C_PORTS'],
    ]);
    expect((await c.get('/api/v2/firewall/alias?id=0')).env.data).toMatchObject({ name: 'B_NETS' });
    expect((await c.get('/api/v2/firewall/alias?id=2')).status).toBe(404);
    expect(sim.control.pendingSubsystems()).toEqual(['aliases']);
  });

  it("the product's body {id, name, descr, apply: false} after a shift: 400 FIELD_VALUE_CHANGED_WHEN_NOT_EDITABLE, nothing changed", async () => {
    const c = api(sim.url, sim.apiKey);
    expect((await c.del('/api/v2/firewall/alias?id=0')).status).toBe(200);
    const before = (await c.get('/api/v2/firewall/aliases')).env.data;
    // B_NETS was id 1 when read; id 1 is now C_PORTS.
    const r = await c.patch('/api/v2/firewall/alias', { id: 1, name: 'B_NETS', descr: 'meant for B', apply: false });
    expect([r.status, r.env.response_id]).toEqual([400, 'FIELD_VALUE_CHANGED_WHEN_NOT_EDITABLE']);
    expect((await c.get('/api/v2/firewall/aliases')).env.data).toEqual(before);
  });

  it('PATCH with explicit apply:false marks aliases pending', async () => {
    const c = api(sim.url, sim.apiKey);
    expect((await c.patch('/api/v2/firewall/alias', { id: 1, descr: 'later', apply: false })).status).toBe(200);
    expect((await c.get('/api/v2/firewall/apply')).env.data).toEqual({ applied: false, pending_subsystems: ['aliases'] });
  });

  it('POST and DELETE with apply=true apply at once and leave nothing pending', async () => {
    const c = api(sim.url, sim.apiKey);
    expect((await c.post('/api/v2/firewall/alias', { name: 'NOW_HOSTS', type: 'host', address: ['10.2.2.2'], apply: true })).status).toBe(
      200,
    );
    expect(sim.control.pendingSubsystems()).toEqual([]);
    const gone = await c.del('/api/v2/firewall/alias?id=3&apply=true');
    expect(gone.status).toBe(200);
    expect(gone.env.data).toMatchObject({ name: 'NOW_HOSTS' });
    expect((await c.get('/api/v2/firewall/apply')).env.data).toEqual({ applied: true, pending_subsystems: [] });
    // A DELETE left pending is applied by a later apply=true write, as pfSense reloads the whole filter.
    await c.del('/api/v2/firewall/alias?id=2');
    expect(sim.control.pendingSubsystems()).toEqual(['aliases']);
    await c.del('/api/v2/firewall/alias?id=1&apply=true');
    expect(sim.control.pendingSubsystems()).toEqual([]);
  });
});

describe('alias PATCH re-checks only what it sends', () => {
  let loaded: RunningSimulator;
  const stored = [
    { name: 'NESTED', type: 'host', descr: 'holds an alias', address: ['A_HOSTS', 'nas.example.com'], detail: ['alias', 'fqdn'] },
    { name: 'RANGE', type: 'host', descr: 'holds a range', address: ['10.0.0.1-10.0.0.5'], detail: ['range'] },
    { name: 'FEED', type: 'url', descr: 'a url alias', address: ['https://feeds.example.com/list.txt'], detail: ['feed'] },
    { name: 'LONG_DETAIL', type: 'host', descr: 'more details than addresses', address: ['10.0.0.9'], detail: ['one', 'two'] },
    { name: 'NET_MIX', type: 'network', descr: 'network entries', address: ['10.3.0.0/16'], detail: ['net'] },
  ];
  beforeEach(async () => {
    loaded = await startSimulator({ now: () => fixedNow, data: { '/api/v2/firewall/aliases': stored } });
  });
  afterEach(async () => loaded.close());

  it('changes only the description of aliases whose stored entries pfSense accepts', async () => {
    const c = api(loaded.url, loaded.apiKey);
    for (const [id, alias] of stored.entries()) {
      const r = await c.patch('/api/v2/firewall/alias', { id, descr: 'probe' });
      expect([alias.name, r.status, r.env.response_id]).toEqual([alias.name, 200, 'SUCCESS']);
      expect(r.env.data).toEqual({ id, ...alias, descr: 'probe' });
    }
  });

  it('accepts alias names and ranges in host and network entries it is sent', async () => {
    const c = api(loaded.url, loaded.apiKey);
    const host = await c.patch('/api/v2/firewall/alias', { id: 0, address: ['RANGE', '10.0.0.1-10.0.0.5', 'fd00::1-fd00::9'] });
    expect(host.status).toBe(200);
    expect((host.env.data as { detail: string[] }).detail).toEqual(['alias', 'fqdn', 'Entry added Wed, 04 Mar 2026 05:06:07 +0000']);
    expect((await c.patch('/api/v2/firewall/alias', { id: 4, address: ['NESTED', '10.4.0.0/24', '10.5.0.1-10.5.0.9'] })).status).toBe(200);
    for (const bad of [['10.0.0.1-'], ['10.0.0.1-fd00::1'], ['10.0.0.1-10.0.0.5/24'], ['bad name!'], ['']]) {
      const r = await c.patch('/api/v2/firewall/alias', { id: 0, address: bad });
      expect([bad, r.status, r.env.response_id]).toEqual([bad, 400, 'FIREWALL_ALIAS_ADDRESS_INVALID']);
    }
  });

  it('still refuses a detail list longer than the address list when the request sends either', async () => {
    const c = api(loaded.url, loaded.apiKey);
    const r = await c.patch('/api/v2/firewall/alias', { id: 3, detail: ['a', 'b', 'c'] });
    expect([r.status, r.env.response_id]).toEqual([400, 'FIREWALL_ALIAS_DETAIL_EXCEEDS_ADDRESSES']);
    const fixed = await c.patch('/api/v2/firewall/alias', { id: 3, address: ['10.0.0.9', '10.0.0.10'] });
    expect(fixed.env.data).toMatchObject({ address: ['10.0.0.9', '10.0.0.10'], detail: ['one', 'two'] });
  });

  it('re-checks the stored entries when the type changes', async () => {
    const c = api(loaded.url, loaded.apiKey);
    const r = await c.patch('/api/v2/firewall/alias', { id: 1, type: 'port' });
    expect([r.status, r.env.response_id]).toEqual([400, 'FIREWALL_ALIAS_ADDRESS_INVALID']);
    expect((await c.patch('/api/v2/firewall/alias', { id: 1, type: 'network' })).status).toBe(200);
  });
});
