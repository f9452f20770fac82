import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../src/index.js';
import { api, raw, type Envelope } from './helpers.js';

const people = [
  { name: 'alpha', uid: 10, scope: 'user', priv: ['a'], descr: 'first' },
  { name: 'bravo', uid: 20, scope: 'system', priv: ['b', 'c'], descr: 'second' },
  { name: 'charlie', uid: 30, scope: 'user', priv: [], descr: 'third' },
  { name: 'delta', uid: 40, scope: 'user', priv: ['c'], descr: 'fourth' },
  { name: 'echo', uid: 50, scope: 'system', priv: [], descr: 'fifth' },
];

let sim: RunningSimulator;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pfsense-sim-test-'));
  const file = join(dir, 'data.json');
  writeFileSync(
    file,
    JSON.stringify({
      '/api/v2/users': people.map((p, i) => ({ id: i, ...p, password: `$2y$10$planted-hash-${i}` })),
      '/api/v2/system/hasync': { pfhostid: 'cafe0001', password: 'planted-sync-password', extra_field: 'kept' },
    }),
  );
  sim = await startSimulator({ dataFile: file });
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

async function names(query: string, headers: Record<string, string> = {}): Promise<[number, string][]> {
  const { env } = await api(sim.url, sim.apiKey).get(`/api/v2/users${query}`, headers);
  return (env.data as { id: number; name: string }[]).map((u) => [u.id, u.name]);
}

describe('query filters, sorting and pagination', () => {
  it('filters with every pfrest filter suffix, keeping original ids', async () => {
    expect(await names('?name=charlie')).toEqual([[2, 'charlie']]);
    expect(await names('?name__exact=charlie')).toEqual([[2, 'charlie']]);
    expect(await names('?name__startswith=d')).toEqual([[3, 'delta']]);
    expect(await names('?name__endswith=o')).toEqual([
      [1, 'bravo'],
      [4, 'echo'],
    ]);
    expect(await names('?descr__contains=ir')).toEqual([
      [0, 'alpha'],
      [2, 'charlie'],
    ]);
    expect(await names('?priv__contains=c')).toEqual([
      [1, 'bravo'],
      [3, 'delta'],
    ]);
    expect(await names('?name__in=alpha,echo')).toEqual([
      [0, 'alpha'],
      [4, 'echo'],
    ]);
    expect(await names('?uid__lt=30')).toEqual([
      [0, 'alpha'],
      [1, 'bravo'],
    ]);
    expect(await names('?uid__lte=30')).toEqual([
      [0, 'alpha'],
      [1, 'bravo'],
      [2, 'charlie'],
    ]);
    expect(await names('?uid__gt=30')).toEqual([
      [3, 'delta'],
      [4, 'echo'],
    ]);
    expect(await names('?uid__gte=40&scope=user')).toEqual([[3, 'delta']]);
    expect(await names('?name__regex=^(a|e)')).toEqual([
      [0, 'alpha'],
      [4, 'echo'],
    ]);
    expect(await names('?scope__except=user')).toEqual([
      [1, 'bravo'],
      [4, 'echo'],
    ]);
    expect(await names('?id=3')).toEqual([[3, 'delta']]);
  });

  it('ignores filters on unknown fields', async () => {
    expect(await names('?no_such_field=1&also_not__contains=x')).toHaveLength(5);
  });

  it('filters before paginating, and limit 0 means no limit', async () => {
    expect(await names('?scope=user&limit=2')).toEqual([
      [0, 'alpha'],
      [2, 'charlie'],
    ]);
    expect(await names('?scope=user&limit=2&offset=1')).toEqual([
      [2, 'charlie'],
      [3, 'delta'],
    ]);
    expect(await names('?offset=4')).toEqual([[4, 'echo']]);
    expect(await names('?limit=0')).toHaveLength(5);
  });

  it('sorts with sort_by and sort_order', async () => {
    expect((await names('?sort_by=uid&sort_order=SORT_DESC')).map(([id]) => id)).toEqual([4, 3, 2, 1, 0]);
    expect(await names('?sort_by=scope&sort_order=SORT_ASC&limit=2')).toEqual([
      [1, 'bravo'],
      [4, 'echo'],
    ]);
  });

  it('defaults firewall/states to 100 entries', async () => {
    const c = api(sim.url, sim.apiKey);
    expect(((await c.get('/api/v2/firewall/states')).env.data as unknown[]).length).toBe(100);
    expect(((await c.get('/api/v2/firewall/states?limit=0')).env.data as unknown[]).length).toBeGreaterThan(100);
    expect(((await c.get('/api/v2/firewall/states?limit=5')).env.data as unknown[]).length).toBe(5);
    expect(((await c.get('/api/v2/status/dhcp_server/leases')).env.data as unknown[]).length).toBeGreaterThan(0);
  });

  it('ignores the query string of a GET sent with Content-Type: application/json and no body', async () => {
    expect(await names('?name=charlie', { 'content-type': 'application/json' })).toHaveLength(5);
    const states = await api(sim.url, sim.apiKey).get('/api/v2/firewall/states?limit=5', { 'content-type': 'application/json' });
    expect((states.env.data as unknown[]).length).toBe(100);
    // With a JSON body the parameters come from the body instead.
    const res = await raw(`${sim.url}/api/v2/users?name=alpha`, {
      headers: { 'x-api-key': sim.apiKey, 'content-type': 'application/json' },
      body: '{"name":"echo"}',
    });
    expect(((res.json as Envelope).data as { name: string }[]).map((u) => u.name)).toEqual(['echo']);
  });
});

describe('--data payloads', () => {
  it('are served verbatim, planted secrets and unknown fields included', async () => {
    const c = api(sim.url, sim.apiKey);
    const users = (await c.get('/api/v2/users')).env.data as Record<string, unknown>[];
    expect(users[1]).toEqual({ id: 1, ...people[1], password: '$2y$10$planted-hash-1' });
    expect((await c.get('/api/v2/system/hasync')).env.data).toEqual({
      pfhostid: 'cafe0001',
      password: 'planted-sync-password',
      extra_field: 'kept',
    });
    // Paths not in the file keep their seeded data.
    expect(((await c.get('/api/v2/firewall/rules')).env.data as unknown[]).length).toBeGreaterThan(10);
  });

  it('are refused when shaped wrongly or naming an unknown path', async () => {
    await expect(startSimulator({ data: { '/api/v2/users': { name: 'x' } } })).rejects.toThrow(/array/);
    await expect(startSimulator({ data: { '/api/v2/system/hasync': [] } })).rejects.toThrow(/object/);
    await expect(startSimulator({ data: { '/api/v2/nope': [] } })).rejects.toThrow(/does not serve/);
  });
});

describe('--state-file', () => {
  it('keeps alias mutations and pending subsystems across restarts', async () => {
    const stateFile = join(dir, 'state.json');
    const first = await startSimulator({ stateFile });
    const c1 = api(first.url, first.apiKey);
    expect((await c1.patch('/api/v2/firewall/alias', { id: 1, descr: 'persisted' })).status).toBe(200);
    expect((await c1.del('/api/v2/firewall/alias?id=0')).status).toBe(200);
    const before = (await c1.get('/api/v2/firewall/aliases')).env.data;
    await first.close();
    const second = await startSimulator({ stateFile, seed: 'ignored-for-aliases' });
    try {
      const c2 = api(second.url, second.apiKey);
      expect((await c2.get('/api/v2/firewall/aliases')).env.data).toEqual(before);
      expect((await c2.get('/api/v2/firewall/alias?id=0')).env.data).toMatchObject({ descr: 'persisted' });
      expect((await c2.get('/api/v2/firewall/apply')).env.data).toEqual({ applied: false, pending_subsystems: ['aliases'] });
    } finally {
      await second.close();
    }
  });

  it('refuses a corrupt state file', async () => {
    const bad = join(dir, 'bad-state.json');
    writeFileSync(bad, '{"version":2}');
    await expect(startSimulator({ stateFile: bad })).rejects.toThrow(/state file/);
  });
});
