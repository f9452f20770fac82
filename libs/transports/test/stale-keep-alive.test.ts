// A pooled keep-alive connection the server has already given up on (its idle timeout fired while
// our request was on the way): the server drops the connection as the request arrives, with no
// response byte. Reproduced deterministically by closing every connection on its second request.
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpTransport, TransportConnectionError, type HttpTransport } from '../src/index.js';
import { makeCertificate, rejectionOf, startHttpServer, startHttpsServer, type LoopbackServer } from './support/loopback-servers.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** Answers the first request of each connection; drops the connection on any later one (no reply). */
async function staleOnReuse(keepAliveTimeoutMs?: number): Promise<LoopbackServer> {
  const perSocket = new WeakMap<object, number>();
  const server = await startHttpServer(
    (req, res) => {
      const n = (perSocket.get(req.socket) ?? 0) + 1;
      perSocket.set(req.socket, n);
      if (n > 1) {
        req.socket.destroy();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"n":1}');
    },
    keepAliveTimeoutMs === undefined ? {} : { keepAliveTimeoutMs },
  );
  cleanups.push(() => server.close());
  return server;
}

function transportFor(server: LoopbackServer, options: Partial<Parameters<typeof createHttpTransport>[0]> = {}): HttpTransport {
  const transport = createHttpTransport({ baseUrl: server.url, allowHttpLoopback: true, ...options });
  cleanups.push(() => transport.close());
  return transport;
}

describe('a stale reused keep-alive connection', () => {
  it('a GET that fails on a reused connection before any response byte is sent once more, on a fresh one', async () => {
    const server = await staleOnReuse();
    const transport = transportFor(server);
    expect((await transport.request('GET', '/api/v2/status/system')).status).toBe(200);
    const second = await transport.request('GET', '/api/v2/status/system');
    expect(second.status).toBe(200);
    expect(second.body).toBe('{"n":1}');
    // First request, the dropped one, and the retry on a new connection.
    expect(server.countFor('/api/v2/status/system')).toBe(3);
    expect(server.stats.connections).toBe(2);
  });

  it('over https too, when the server closes the connection with a TLS close alert and no response', async () => {
    const cert = makeCertificate();
    cleanups.push(() => cert.remove());
    const perSocket = new WeakMap<object, number>();
    const server = await startHttpsServer(cert, (req, res) => {
      const n = (perSocket.get(req.socket) ?? 0) + 1;
      perSocket.set(req.socket, n);
      if (n > 1) {
        req.socket.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
    cleanups.push(() => server.close());
    const transport = transportFor(server, { caFile: cert.certPath, allowHttpLoopback: false });
    expect((await transport.request('GET', '/a')).status).toBe(200);
    expect((await transport.request('GET', '/a')).status).toBe(200);
    expect(server.countFor('/a')).toBe(3);
    const error = await rejectionOf(transport.request('PATCH', '/w', { body: '{}' }));
    expect(error).toMatchObject({ code: 'CONNECTION_RESET', requestWritten: true });
    expect(server.countFor('/w')).toBe(1);
  });

  it('never resends a PATCH, POST or DELETE: CONNECTION_RESET, maybe written, sent exactly once', async () => {
    for (const method of ['PATCH', 'POST', 'DELETE'] as const) {
      const server = await staleOnReuse();
      const transport = transportFor(server);
      await transport.request('GET', '/a');
      const body = method === 'DELETE' ? {} : { body: '{"id":0,"descr":"x"}' };
      const error = await rejectionOf(transport.request(method, '/w', body));
      expect(error).toBeInstanceOf(TransportConnectionError);
      expect(error).toMatchObject({ code: 'CONNECTION_RESET', requestWritten: true });
      expect(server.countFor('/w')).toBe(1);
    }
  });

  it('retries a GET at most once: a second drop is reported as CONNECTION_RESET', async () => {
    let n = 0;
    const server = await startHttpServer((req, res) => {
      n += 1;
      if (n > 1) {
        req.socket.destroy();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
    cleanups.push(() => server.close());
    const transport = transportFor(server);
    await transport.request('GET', '/a');
    const error = await rejectionOf(transport.request('GET', '/a'));
    expect(error).toMatchObject({ code: 'CONNECTION_RESET', requestWritten: true });
    expect(server.countFor('/a')).toBe(3);
  });

  it('does not retry a GET on a fresh connection', async () => {
    const server = await startHttpServer((req) => req.socket.destroy());
    cleanups.push(() => server.close());
    const transport = transportFor(server);
    const error = await rejectionOf(transport.request('GET', '/a'));
    expect(error).toMatchObject({ code: 'CONNECTION_RESET' });
    expect(server.countFor('/a')).toBe(1);
  });

  it('closes a pooled connection idle for freeSocketTimeoutMs, so a write is never sent on it', async () => {
    // keepAliveTimeout 0: the server keeps idle connections forever and sends no Keep-Alive hint,
    // like an nginx whose timeout the client cannot see.
    const server = await staleOnReuse(0);
    const transport = transportFor(server, { freeSocketTimeoutMs: 50 });
    await transport.request('GET', '/a');
    const [socket] = [...server.sockets];
    expect(socket).toBeDefined();
    await once(socket!, 'close');
    const response = await transport.request('PATCH', '/w', { body: '{}' });
    expect(response.status).toBe(200);
    expect(server.stats.connections).toBe(2);
  });
});

describe('freeSocketTimeoutMs', () => {
  it('does not cut a request on the wire that takes longer than the idle timeout', async () => {
    const server = await startHttpServer((_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      }, 120);
    });
    cleanups.push(() => server.close());
    const transport = transportFor(server, { freeSocketTimeoutMs: 20 });
    expect((await transport.request('GET', '/slow')).status).toBe(200);
    expect((await transport.request('PATCH', '/slow', { body: '{}' })).status).toBe(200);
  });

  it('is validated', () => {
    for (const freeSocketTimeoutMs of [0, -1, 1.5, Number.NaN]) {
      expect(() => createHttpTransport({ baseUrl: 'https://127.0.0.1', freeSocketTimeoutMs })).toThrow(/freeSocketTimeoutMs/);
    }
  });
});
