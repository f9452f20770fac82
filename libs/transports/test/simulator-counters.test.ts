// One call = one upstream request, proven on the simulator's own per-route counters, for a clean
// call and for every fault kind the simulator injects — with one exception: a GET whose pooled
// connection is cut before any response byte is sent once more (the keep-alive race), never a write.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The simulator is a test fixture any project's tests may use (HELPERS.md; the boundaries rule allows
// it, and so does the Nx rule for test files).
import { startSimulator, type RunningSimulator } from '@pfsense-mcp/pfsense-sim';
import { createHttpTransport, FaultKind, TransportError, type HttpTransport } from '../src/index.js';

const ROUTE = '/api/v2/firewall/aliases';
let sim: RunningSimulator;
let transport: HttpTransport;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, log: () => undefined });
  transport = createHttpTransport({
    baseUrl: sim.url,
    allowHttpLoopback: true,
    authHeader: { name: 'X-API-Key', value: sim.apiKey },
    responseTimeoutMs: 300,
    maxResponseBytes: 64 * 1024,
  });
});
afterAll(async () => {
  transport.close();
  await sim.close();
});

describe('against the simulator', () => {
  it('a clean read is one request', async () => {
    sim.control.resetCounters();
    const response = await transport.request('GET', ROUTE, { query: { limit: 5 } });
    expect(response.status).toBe(200);
    expect(sim.control.count(ROUTE, 'GET')).toBe(1);
  });

  // Cut before any response byte: on a reused connection that looks like the keep-alive race.
  const CUT: readonly FaultKind[] = ['reset-before-apply', 'reset-after-apply', 'drop-response-after-apply'];

  it.each(Object.values(FaultKind))('fault %s on a reused connection: a PATCH reaches the simulator exactly once', async (kind) => {
    sim.control.clearFaults();
    expect((await transport.request('GET', ROUTE, { query: { limit: 1 } })).status).toBe(200);
    sim.control.resetCounters();
    sim.control.setFault({
      route: '/api/v2/firewall/alias',
      method: 'PATCH',
      kind,
      ...(kind === 'latency' ? { ms: 10 } : {}),
      ...(kind === 'oversized-body' ? { bytes: 1024 * 1024 } : {}),
    });
    const body = JSON.stringify({ id: 0, descr: 'x' });
    await transport.request('PATCH', '/api/v2/firewall/alias', { body }).catch(() => undefined);
    sim.control.clearFaults();
    expect(sim.control.count('/api/v2/firewall/alias', 'PATCH')).toBe(1);
  });

  it.each(Object.values(FaultKind))('fault %s on a reused connection: a GET reaches the simulator once (twice if cut)', async (kind) => {
    sim.control.clearFaults();
    // A clean call first, so the faulty one goes out on a pooled connection.
    expect((await transport.request('GET', ROUTE, { query: { limit: 1 } })).status).toBe(200);
    sim.control.resetCounters();
    sim.control.setFault({
      route: ROUTE,
      method: 'GET',
      kind,
      ...(kind === 'latency' ? { ms: 10 } : {}),
      ...(kind === 'oversized-body' ? { bytes: 1024 * 1024 } : {}),
    });
    const outcome = await transport.request('GET', ROUTE).then(
      (response) => ({ status: response.status }),
      (error: unknown) => {
        expect(error).toBeInstanceOf(TransportError);
        return { code: (error as TransportError).code, written: (error as TransportError).requestWritten };
      },
    );
    sim.control.clearFaults();
    expect(sim.control.count(ROUTE, 'GET')).toBe(CUT.includes(kind) ? 2 : 1);
    // The simulator answered or cut a request it had received: never "not written".
    if ('written' in outcome) expect(outcome.written).toBe(true);
    const expected: Partial<Record<FaultKind, unknown>> = {
      latency: { status: 200 },
      timeout: { code: 'RESPONSE_TIMEOUT', written: true },
      'reset-before-apply': { code: 'CONNECTION_RESET', written: true },
      'reset-after-apply': { code: 'CONNECTION_RESET', written: true },
      '5xx-after-apply': { status: 500 },
      'drop-response-after-apply': { code: 'CONNECTION_RESET', written: true },
      'redirect-3xx': { status: 302 },
      'other-2xx': { status: 202 },
      'malformed-json': { status: 200 },
      'oversized-body': { code: 'RESPONSE_TOO_LARGE', written: true },
    };
    expect(outcome).toEqual(expected[kind]);
  });
});
