import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../src/index.js';
import { api } from './helpers.js';

const REVISIONS = '/api/v2/diagnostics/config_history/revisions';
const ALIAS = '/api/v2/firewall/alias';
interface Revision {
  id: number;
  time: number;
  description: string;
  version: string;
  filesize: number;
}

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function revisions(c: ReturnType<typeof api>, query = ''): Promise<Revision[]> {
  const r = await c.get(`${REVISIONS}${query}`);
  expect(r.status).toBe(200);
  return r.env.data as Revision[];
}

describe('configuration history', () => {
  it('serves the seeded history newest first with pfrest fields only', async () => {
    sim = await startSimulator({ seed: 'office' });
    const list = await revisions(api(sim.url, sim.apiKey));
    expect(list.length).toBeGreaterThan(2);
    for (const [i, r] of list.entries()) {
      expect(Object.keys(r).sort()).toEqual(['description', 'filesize', 'id', 'time', 'version']);
      expect(r.id).toBe(i);
      if (i > 0) expect(r.time).toBeLessThan(list[i - 1]!.time);
    }
  });

  it("every alias write leaves one revision with pfrest's change note and the user; apply leaves none", async () => {
    let t = Date.parse('2026-03-04T05:06:07Z');
    sim = await startSimulator({ seed: 'office', now: () => new Date(t) });
    const c = api(sim.url, sim.apiKey);
    const before = await revisions(c);
    expect((await c.post(ALIAS, { name: 'NEW_HOSTS', type: 'host', address: ['10.0.0.1'] })).status).toBe(200);
    t += 1000;
    const aliases = (await c.get('/api/v2/firewall/aliases')).env.data as { id: number; name: string }[];
    const id = aliases.find((a) => a.name === 'NEW_HOSTS')!.id;
    expect((await c.patch(ALIAS, { id, descr: 'changed' })).status).toBe(200);
    t += 1000;
    expect((await c.post('/api/v2/firewall/apply', {})).status).toBe(200);
    expect((await c.call('DELETE', `${ALIAS}?id=${id}&apply=true`)).status).toBe(200);
    const after = await revisions(c);
    expect(after.length).toBe(before.length + 3);
    expect(after.slice(0, 3).map((r) => r.description)).toEqual([
      'api-key@127.0.0.1:  Deleted Firewall Alias via API',
      'api-key@127.0.0.1:  Modified Firewall Alias via API',
      'api-key@127.0.0.1:  Added Firewall Alias via API',
    ]);
    const s = Date.parse('2026-03-04T05:06:07Z') / 1000;
    expect(after.slice(0, 3).map((r) => r.time)).toEqual([s + 2, s + 1, s]);
    expect(after.slice(0, 3).map((r) => r.id)).toEqual([0, 1, 2]);
    expect(after.every((r) => r.version === '24.0' && Number.isInteger(r.filesize))).toBe(true);
    // The older entries shifted by three: ids are indices, not identities.
    expect(after.slice(3).map((r) => [r.time, r.description])).toEqual(before.map((r) => [r.time, r.description]));
  });

  it('a refused write leaves no revision; Basic users are recorded by name', async () => {
    sim = await startSimulator({ seed: 'office' });
    const c = api(sim.url, sim.apiKey);
    const before = await revisions(c);
    expect((await c.patch(ALIAS, { id: 999, descr: 'x' })).status).toBe(404);
    expect((await revisions(c)).length).toBe(before.length);
    const basic = api(sim.url, '');
    const auth = `Basic ${Buffer.from(`admin:${sim.apiKey}`).toString('base64')}`;
    expect(
      (await basic.call('POST', ALIAS, { name: 'BY_BASIC', type: 'port', address: ['443'] }, { authorization: auth, 'x-api-key': '' }))
        .status,
    ).toBe(200);
    expect((await revisions(c))[0]!.description).toBe('admin@127.0.0.1:  Added Firewall Alias via API');
  });

  it("rotates at pfSense's default of 30 revisions, dropping the oldest", async () => {
    sim = await startSimulator({ seed: 'office' });
    const c = api(sim.url, sim.apiKey);
    for (let i = 0; i < 31; i += 1) expect((await c.post(ALIAS, { name: `ROT_${i}`, type: 'port', address: ['443'] })).status).toBe(200);
    const list = await revisions(c);
    expect(list.length).toBe(30);
    expect(list.every((r) => r.description.endsWith('Added Firewall Alias via API'))).toBe(true);
  });

  it('serves pfrest filters and pagination on the revisions', async () => {
    sim = await startSimulator({ seed: 'office' });
    const c = api(sim.url, sim.apiKey);
    await c.post(ALIAS, { name: 'F_ONE', type: 'port', address: ['443'] });
    const all = await revisions(c);
    expect(await revisions(c, '?limit=2&offset=1')).toEqual(all.slice(1, 3));
    const mine = await revisions(c, '?description__contains=Firewall%20Alias%20via%20API');
    expect(mine.map((r) => r.id)).toEqual([0]);
    expect(await revisions(c, `?time__gte=${all[0]!.time}`)).toEqual([all[0]]);
  });

  it('faults apply to the revisions route like any other', async () => {
    sim = await startSimulator({ seed: 'office', faults: [{ route: REVISIONS, method: 'GET', kind: '5xx-after-apply', status: 503 }] });
    const c = api(sim.url, sim.apiKey);
    expect((await c.get(REVISIONS)).status).toBe(503);
    sim.control.clearFaults(REVISIONS, 'GET');
    expect((await c.get(REVISIONS)).status).toBe(200);
    expect(sim.control.count(REVISIONS, 'GET')).toBe(2);
  });

  it('keeps the history across restarts with a state file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-history-'));
    try {
      const stateFile = join(dir, 'state.json');
      sim = await startSimulator({ seed: 'office', stateFile });
      await api(sim.url, sim.apiKey).post(ALIAS, { name: 'KEPT', type: 'port', address: ['443'] });
      const first = await revisions(api(sim.url, sim.apiKey));
      await sim.close();
      sim = await startSimulator({ seed: 'office', stateFile });
      expect(await revisions(api(sim.url, sim.apiKey))).toEqual(first);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
