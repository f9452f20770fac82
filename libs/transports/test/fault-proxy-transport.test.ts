import { afterEach, describe, expect, it } from 'vitest';
import {
  createHttpTransport,
  FAULT_DELIVERY,
  FaultKind,
  FaultProxyTransport,
  TransportConnectionError,
  TransportError,
} from '../src/index.js';
import { RecordingMockTransport } from '@pfsense-mcp/test-support';
import { rejectionOf, startHttpServer } from './support/loopback-servers.js';

const PATH = '/api/v2/firewall/alias';
const OK_BODY = '{"code":200,"status":"ok","response_id":"SUCCESS","message":"","data":{"id":0}}';

function upstream(): RecordingMockTransport {
  return new RecordingMockTransport({ handler: () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: OK_BODY }) });
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

describe('FaultProxyTransport', () => {
  it('declares a delivery for every kind, and the kinds are the simulator names', () => {
    expect(Object.keys(FAULT_DELIVERY).sort()).toEqual(Object.values(FaultKind).sort());
    expect(Object.isFrozen(FAULT_DELIVERY) && Object.values(FAULT_DELIVERY).every(Object.isFrozen)).toBe(true);
  });

  it.each(Object.values(FaultKind))('%s behaves as FAULT_DELIVERY declares', async (kind) => {
    const inner = upstream();
    const proxy = new FaultProxyTransport(inner, [{ method: 'PATCH', path: PATH, kind, ...(kind === 'latency' ? { ms: 5 } : {}) }]);
    const declared = FAULT_DELIVERY[kind];
    const outcome = await proxy.request('PATCH', PATH, { body: '{"id":0,"descr":"x"}' }).then(
      (response) => ({ response }),
      (error: unknown) => ({ error }),
    );
    expect(inner.callCount).toBe(declared.reachesUpstream ? 1 : 0);
    expect(proxy.sendCount).toBe(inner.callCount);
    expect(proxy.sendCountFor('PATCH', PATH)).toBe(inner.callCount);
    expect(proxy.callCount).toBe(1);
    if (declared.outcome === 'error') {
      expect('error' in outcome).toBe(true);
      const error = (outcome as { error: unknown }).error;
      expect(error).toBeInstanceOf(TransportError);
      expect(error).toMatchObject({
        name: declared.errorName,
        code: declared.errorCode,
        requestWritten: declared.requestWritten,
      });
    } else {
      expect('response' in outcome).toBe(true);
      const { response } = outcome as { response: { status: number; body: string } };
      if (declared.outcome === 'upstream-result') expect(response).toMatchObject({ status: 200, body: OK_BODY });
      if (kind === '5xx-after-apply') expect(response.status).toBe(500);
      if (kind === 'redirect-3xx') expect(response.status).toBe(302);
      if (kind === 'other-2xx') expect(response).toMatchObject({ status: 202, body: OK_BODY });
      if (kind === 'malformed-json') {
        expect(response.status).toBe(200);
        expect(() => JSON.parse(response.body) as unknown).toThrow(SyntaxError);
      }
    }
  });

  it('applies a fault only to its method + path, for `times` calls', async () => {
    const inner = upstream();
    const proxy = new FaultProxyTransport(inner, [{ method: 'PATCH', path: PATH, kind: 'reset-before-apply', times: 1 }]);
    expect((await proxy.request('GET', PATH)).status).toBe(200);
    expect((await proxy.request('PATCH', '/api/v2/firewall/other', { body: '{}' })).status).toBe(200);
    await expect(proxy.request('PATCH', PATH, { body: '{}' })).rejects.toBeInstanceOf(TransportConnectionError);
    expect((await proxy.request('PATCH', PATH, { body: '{}' })).status).toBe(200);
    expect(proxy.faults()).toEqual([]);
    expect(proxy.callCount).toBe(4);
    expect(proxy.sendCount).toBe(3);
    expect(proxy.sendCountFor('PATCH', PATH)).toBe(1);
    expect(inner.calls.map((c) => `${c.method} ${c.path}`)).toEqual([`GET ${PATH}`, 'PATCH /api/v2/firewall/other', `PATCH ${PATH}`]);
  });

  it('install replaces the faults and resets the counters; setFault replaces per key', async () => {
    const proxy = new FaultProxyTransport(upstream(), [{ method: 'GET', path: '/a', kind: 'timeout' }]);
    await expect(proxy.request('GET', '/a')).rejects.toMatchObject({ code: 'RESPONSE_TIMEOUT' });
    proxy.setFault({ method: 'GET', path: '/a', kind: 'other-2xx', status: 204 });
    expect((await proxy.request('GET', '/a')).status).toBe(204);
    expect(proxy.sendCount).toBe(1);
    proxy.install([]);
    expect([proxy.sendCount, proxy.callCount, proxy.faults().length]).toEqual([0, 0, 0]);
    expect((await proxy.request('GET', '/a')).status).toBe(200);
  });

  it('an after-apply fault never claims an apply that failed: the upstream error passes through', async () => {
    const refused = new TransportConnectionError('CONNECTION_REFUSED', false);
    const inner = new RecordingMockTransport({ replies: [{ error: refused }] });
    const proxy = new FaultProxyTransport(inner, [{ method: 'PATCH', path: PATH, kind: 'reset-after-apply' }]);
    await expect(proxy.request('PATCH', PATH, { body: '{}' })).rejects.toBe(refused);
    expect(proxy.sendCount).toBe(1);
  });

  it('refuses malformed rules', () => {
    const inner = upstream();
    expect(() => new FaultProxyTransport(inner, [{ method: 'PATCH', path: PATH, kind: 'nope' as FaultKind }])).toThrow(TypeError);
    expect(() => new FaultProxyTransport(inner, [{ method: 'PATCH', path: PATH, kind: 'other-2xx', status: 500 }])).toThrow(TypeError);
    expect(() => new FaultProxyTransport(inner, [{ method: 'PATCH', path: PATH, kind: 'reset-after-apply', ms: 5 }])).toThrow(TypeError);
    expect(() => new FaultProxyTransport(inner, [{ method: 'PATCH', path: PATH, kind: 'timeout', times: 0 }])).toThrow(TypeError);
    expect(() => new FaultProxyTransport({} as never)).toThrow(TypeError);
  });

  it('over the real HTTP transport, its send count equals the requests the server saw', async () => {
    const server = await startHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(OK_BODY);
    });
    cleanups.push(() => server.close());
    const http = createHttpTransport({ baseUrl: server.url, allowHttpLoopback: true });
    cleanups.push(() => http.close());
    const proxy = new FaultProxyTransport(http, [
      { method: 'PATCH', path: PATH, kind: 'drop-response-after-apply', times: 1 },
      { method: 'POST', path: PATH, kind: 'reset-before-apply' },
    ]);
    const dropped = await rejectionOf(proxy.request('PATCH', PATH, { body: '{}' }));
    expect(dropped).toMatchObject({ code: 'CONNECTION_RESET', requestWritten: true });
    await rejectionOf(proxy.request('POST', PATH, { body: '{}' }));
    await proxy.request('PATCH', PATH, { body: '{}' });
    await proxy.request('GET', '/api/v2/firewall/aliases');
    expect(proxy.sendCount).toBe(3);
    expect(server.received).toHaveLength(3);
    expect(server.received.filter((r) => r.method === 'POST')).toHaveLength(0);
    expect(proxy.sendCountFor('PATCH', PATH)).toBe(server.countFor(PATH));
  });
});
