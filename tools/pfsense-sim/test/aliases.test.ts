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
    const made = await c.post('/api/v2/firewall/alias', { name: 'NEW_HOSTS', type: 'host', address: ['10.9.9.9', 'nas.example.com'], detail: ['nine'] });
    expect(made.status).toBe(200);
    expect(made.env.data).toEqual({ id: 3, name: 'NEW_HOSTS', type: 'host', descr: '', address: ['10.9.9.9', 'nas.example.com'], detail: ['nine', 'Entry added Wed, 04 Mar 2026 05:06:07 +0000'] });
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
    expect(list.map((a) => [a.id, a.name])).toEqual([[0, 'B_NETS'], [1, 'C_PORTS']]);
    expect((await c.get('/api/v2/firewall/alias?id=0')).env.data).toMatchObject({ name: 'B_NETS' });
    expect((await c.get('/api/v2/firewall/alias?id=2')).status).toBe(404);
    expect(sim.control.pendingSubsystems()).toEqual(['aliases']);
  });
});
