import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FAULT_KINDS, FAULT_KIND_NAMES, parseFaultArg, startSimulator, type FaultSpec, type RunningSimulator } from '../src/index.js';
import { api, control, raw, type Envelope } from './helpers.js';

const ALIAS = '/api/v2/firewall/alias';
let sim: RunningSimulator;

beforeEach(async () => {
  sim = await startSimulator({
    data: { '/api/v2/firewall/aliases': [{ name: 'TARGET', type: 'host', descr: 'before', address: [], detail: [] }] },
  });
});
afterEach(async () => sim.close());

function patch(descr: string, timeoutMs?: number): Promise<Awaited<ReturnType<typeof raw>>> {
  const body = JSON.stringify({ id: 0, descr });
  return raw(sim.url + ALIAS, {
    method: 'PATCH',
    headers: { 'x-api-key': sim.apiKey, 'content-type': 'application/json' },
    body,
    timeoutMs,
  });
}

async function currentDescr(): Promise<string> {
  const { env } = await api(sim.url, sim.apiKey).get(`${ALIAS}?id=0`);
  return (env.data as { descr: string }).descr;
}

function fault(kind: FaultSpec['kind'], extra: Partial<FaultSpec> = {}): FaultSpec {
  return { route: ALIAS, method: 'PATCH', kind, ...extra };
}

describe('fault kinds', () => {
  it('declares for every kind whether the write is applied', () => {
    expect(FAULT_KIND_NAMES).toEqual([
      'latency',
      'timeout',
      'reset-before-apply',
      'reset-after-apply',
      '5xx-after-apply',
      'drop-response-after-apply',
      'redirect-3xx',
      'other-2xx',
      'malformed-json',
      'oversized-body',
    ]);
    expect(Object.fromEntries(FAULT_KIND_NAMES.map((k) => [k, FAULT_KINDS[k].applied]))).toEqual({
      latency: true,
      timeout: false,
      'reset-before-apply': false,
      'reset-after-apply': true,
      '5xx-after-apply': true,
      'drop-response-after-apply': true,
      'redirect-3xx': false,
      'other-2xx': true,
      'malformed-json': true,
      'oversized-body': true,
    });
  });

  it('latency delays, then handles the request normally', async () => {
    sim.control.setFault(fault('latency', { ms: 150 }));
    const res = await patch('slow');
    expect(res.status).toBe(200);
    expect(await currentDescr()).toBe('slow');
    sim.control.setFault(fault('latency', { ms: 5000 }));
    await expect(patch('too slow for the client', 100)).rejects.toMatchObject({ code: 'CLIENT_TIMEOUT' });
  });

  it('timeout accepts and never answers; nothing is applied', async () => {
    sim.control.setFault(fault('timeout'));
    await expect(patch('never', 300)).rejects.toMatchObject({ code: 'CLIENT_TIMEOUT' });
    sim.control.clearFaults();
    expect(await currentDescr()).toBe('before');
    expect(sim.control.pendingSubsystems()).toEqual([]);
  });

  it('reset-before-apply resets the connection; nothing is applied', async () => {
    sim.control.setFault(fault('reset-before-apply'));
    await expect(patch('lost')).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(await currentDescr()).toBe('before');
  });

  it('reset-after-apply commits, then resets the connection', async () => {
    sim.control.setFault(fault('reset-after-apply'));
    await expect(patch('committed')).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(await currentDescr()).toBe('committed');
    expect(sim.control.pendingSubsystems()).toEqual(['aliases']);
  });

  it('5xx-after-apply commits, then answers a server error envelope', async () => {
    sim.control.setFault(fault('5xx-after-apply'));
    const res = await patch('committed-500');
    expect(res.status).toBe(500);
    expect(res.json).toMatchObject({ code: 500, data: [] });
    expect(await currentDescr()).toBe('committed-500');
    sim.control.setFault(fault('5xx-after-apply', { status: 503 }));
    expect((await patch('committed-503')).status).toBe(503);
    expect(await currentDescr()).toBe('committed-503');
  });

  it('drop-response-after-apply commits, then closes without a response', async () => {
    sim.control.setFault(fault('drop-response-after-apply'));
    await expect(patch('dropped')).rejects.toMatchObject({ message: 'socket hang up' });
    expect(await currentDescr()).toBe('dropped');
  });

  it('redirect-3xx redirects without applying', async () => {
    sim.control.setFault(fault('redirect-3xx'));
    const res = await patch('redirected');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`${sim.url}/`);
    expect(await currentDescr()).toBe('before');
    sim.control.setFault(fault('redirect-3xx', { status: 307 }));
    expect((await patch('redirected')).status).toBe(307);
  });

  it('other-2xx commits, then answers a different 2xx', async () => {
    sim.control.setFault(fault('other-2xx'));
    const res = await patch('accepted');
    expect(res.status).toBe(202);
    expect((res.json as Envelope).data).toMatchObject({ descr: 'accepted' });
    sim.control.setFault(fault('other-2xx', { status: 204 }));
    const empty = await patch('no content');
    expect([empty.status, empty.text]).toEqual([204, '']);
    expect(await currentDescr()).toBe('no content');
  });

  it('malformed-json commits, then answers 200 with a body that does not parse', async () => {
    sim.control.setFault(fault('malformed-json'));
    const res = await patch('garbled');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(() => JSON.parse(res.text)).toThrow();
    expect(await currentDescr()).toBe('garbled');
  });

  it('oversized-body commits, then answers a valid but huge envelope', async () => {
    sim.control.setFault(fault('oversized-body', { bytes: 2 * 1024 * 1024 }));
    const res = await patch('big');
    expect(res.status).toBe(200);
    expect(res.text.length).toBeGreaterThanOrEqual(2 * 1024 * 1024);
    expect((res.json as Envelope).response_id).toBe('SUCCESS');
    expect(await currentDescr()).toBe('big');
  });

  it('hits only its route and method, and clears itself after `times`', async () => {
    sim.control.setFault(fault('5xx-after-apply', { times: 1 }));
    expect((await api(sim.url, sim.apiKey).get(`${ALIAS}?id=0`)).status).toBe(200);
    expect((await patch('one')).status).toBe(500);
    expect((await patch('two')).status).toBe(200);
    expect(sim.control.faults()).toEqual([]);
  });

  it('faults GETs too', async () => {
    sim.control.setFault({ route: '/api/v2/status/system', method: 'GET', kind: 'malformed-json' });
    const res = await raw(`${sim.url}/api/v2/status/system`, { headers: { 'x-api-key': sim.apiKey } });
    expect(() => JSON.parse(res.text)).toThrow();
  });
});

describe('counters and the control endpoint', () => {
  it('counts requests per route and method, faulted ones included', async () => {
    sim.control.setFault(fault('reset-before-apply', { times: 1 }));
    await expect(patch('x')).rejects.toBeDefined();
    await patch('y');
    await api(sim.url, sim.apiKey).get(`${ALIAS}?id=0`);
    await raw(`${sim.url}/nowhere`);
    expect(sim.control.count(ALIAS, 'PATCH')).toBe(2);
    expect(sim.control.counters()).toEqual({ [`GET ${ALIAS}`]: 1, [`PATCH ${ALIAS}`]: 2, 'GET /nowhere': 1 });
    sim.control.resetCounters();
    expect(sim.control.counters()).toEqual({});
  });

  it('sets, lists and clears faults and reads counters over HTTP, with the admin key only', async () => {
    const ctl = control(sim.url, sim.apiKey);
    expect((await raw(`${sim.url}/__sim/faults`)).status).toBe(401);
    expect((await raw(`${sim.url}/__sim/faults`, { headers: { 'x-api-key': 'not-the-admin-key-000' } })).status).toBe(401);
    const set = await ctl('POST', '/__sim/faults', { route: ALIAS, method: 'PATCH', kind: '5xx-after-apply', times: 2 });
    expect(set.status).toBe(200);
    expect(set.json).toEqual({ faults: [{ route: ALIAS, method: 'PATCH', kind: '5xx-after-apply', times: 2 }] });
    expect((await ctl('POST', '/__sim/faults', { route: ALIAS, method: 'PATCH', kind: 'explode' })).status).toBe(400);
    expect((await patch('via-http-control')).status).toBe(500);
    expect((await ctl('GET', '/__sim/counters')).json).toEqual({ counters: { [`PATCH ${ALIAS}`]: 1 } });
    expect((await ctl('DELETE', `/__sim/faults?route=${encodeURIComponent(ALIAS)}&method=PATCH`)).json).toEqual({ faults: [] });
    expect((await patch('after-clear')).status).toBe(200);
    expect((await ctl('DELETE', '/__sim/counters')).json).toEqual({ counters: {} });
    expect(
      ((await ctl('GET', '/__sim/kinds')).json as { kinds: Record<string, { applied: boolean }> }).kinds['reset-after-apply']?.applied,
    ).toBe(true);
    expect((await ctl('GET', '/__sim/pending')).json).toEqual({ pending_subsystems: ['aliases'] });
    expect((await ctl('POST', '/__sim/reset')).status).toBe(200);
    expect(await currentDescr()).toBe('before');
    expect(sim.control.pendingSubsystems()).toEqual([]);
  });

  it('takes faults at start, in the CLI form', async () => {
    const spec = parseFaultArg(`${ALIAS}:PATCH:5xx-after-apply:502`);
    expect(spec).toEqual({ route: ALIAS, method: 'PATCH', kind: '5xx-after-apply', status: 502 });
    expect(() => parseFaultArg(`${ALIAS}:PATCH:explode`)).toThrow(TypeError);
    expect(() => parseFaultArg(`${ALIAS}:PATCH:timeout:5`)).toThrow(TypeError);
    expect(() => parseFaultArg(`${ALIAS}:PATCH:5xx-after-apply:302`)).toThrow(TypeError);
    const other = await startSimulator({ faults: [spec, parseFaultArg('/api/v2/status/system:get:latency:10')] });
    try {
      const res = await raw(other.url + ALIAS, {
        method: 'PATCH',
        headers: { 'x-api-key': other.apiKey, 'content-type': 'application/json' },
        body: '{"id":0,"descr":"x"}',
      });
      expect(res.status).toBe(502);
      expect(other.control.faults()).toHaveLength(2);
    } finally {
      await other.close();
    }
  });
});
