// One call = one upstream request, proven on the simulator's own per-route counters, for a clean
// call and for every fault kind the simulator injects (the HTTP transport never retries).
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

  it.each(Object.values(FaultKind))('fault %s: exactly one request reaches the simulator', async (kind) => {
    sim.control.resetCounters();
    sim.control.clearFaults();
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
    expect(sim.control.count(ROUTE, 'GET')).toBe(1);
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
