import { afterEach, describe, expect, it } from 'vitest';
import {
  createHttpTransport,
  ResponseTooLargeError,
  TransportConnectionError,
  TransportError,
  TransportTimeoutError,
  type HttpTransport,
} from '../src/index.js';
import { freePort, rejectionOf, startHttpServer, type LoopbackServer, type TestHandler } from './support/loopback-servers.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function setup(
  handler: TestHandler,
  options: Partial<Parameters<typeof createHttpTransport>[0]> = {},
): Promise<{ server: LoopbackServer; transport: HttpTransport }> {
  const server = await startHttpServer(handler);
  cleanups.push(() => server.close());
  const transport = createHttpTransport({ baseUrl: server.url, allowHttpLoopback: true, ...options });
  cleanups.push(() => transport.close());
  return { server, transport };
}

const json = (res: Parameters<TestHandler>[1], status: number, body: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

describe('createHttpTransport over loopback http', () => {
  it('returns status, lower-case headers and the body; sends query, auth and accept headers', async () => {
    const { server, transport } = await setup(
      (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json', 'X-Thing': 'yes' });
        res.end('{"ok":true,"é":"ü"}');
      },
      { authHeader: { name: 'X-API-Key', value: 'k-123' } },
    );
    const response = await transport.request('GET', '/api/v2/status/system', { query: { limit: 10, q: 'a b&c' } });
    expect(response.status).toBe(200);
    expect(response.headers['x-thing']).toBe('yes');
    expect(response.body).toBe('{"ok":true,"é":"ü"}');
    expect(Object.isFrozen(response)).toBe(true);
    expect(Object.isFrozen(response.headers)).toBe(true);
    const [seen] = server.received;
    expect(seen?.url).toBe('/api/v2/status/system?limit=10&q=a+b%26c');
    expect(seen?.headers['x-api-key']).toBe('k-123');
    expect(seen?.headers.accept).toBe('application/json');
    expect(seen?.headers['accept-encoding']).toBeUndefined();
  });

  it('sends no Content-Type on a request without a body, and the JSON text as given with one', async () => {
    const { server, transport } = await setup((_req, res) => json(res, 200, {}));
    await transport.request('GET', '/a');
    await transport.request('DELETE', '/a', { query: { id: 3 } });
    await transport.request('PATCH', '/a', { body: '{"id":3,"descr":"x"}' });
    await transport.request('POST', '/a', { body: '[]' });
    const [get, del, patch, post] = server.received;
    expect(get?.headers['content-type']).toBeUndefined();
    expect(del?.headers['content-type']).toBeUndefined();
    expect(del?.body).toBe('');
    expect(patch?.method).toBe('PATCH');
    expect(patch?.headers['content-type']).toBe('application/json');
    expect(patch?.body).toBe('{"id":3,"descr":"x"}');
    expect(post?.body).toBe('[]');
  });

  it('prefixes the base URL path', async () => {
    const server = await startHttpServer((_req, res) => json(res, 200, {}));
    cleanups.push(() => server.close());
    const transport = createHttpTransport({ baseUrl: `${server.url}/prefix/`, allowHttpLoopback: true });
    cleanups.push(() => transport.close());
    await transport.request('GET', '/api/v2/x');
    expect(server.received[0]?.url).toBe('/prefix/api/v2/x');
  });

  it('returns a 5xx as a response and sends exactly one request', async () => {
    const { server, transport } = await setup((_req, res) => json(res, 503, { code: 503 }));
    const response = await transport.request('PATCH', '/api/v2/firewall/alias', { body: '{}' });
    expect(response.status).toBe(503);
    expect(server.countFor('/api/v2/firewall/alias')).toBe(1);
  });

  it('never follows a redirect: the 3xx comes back as it is', async () => {
    const { server, transport } = await setup((req, res) => {
      if (req.url === '/start') {
        res.writeHead(302, { location: '/target' });
        res.end();
      } else json(res, 200, {});
    });
    const response = await transport.request('POST', '/start', { body: '{}' });
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe('/target');
    expect(server.countFor('/start')).toBe(1);
    expect(server.countFor('/target')).toBe(0);
  });

  it('a reset after the request was received: CONNECTION_RESET, requestWritten true, one request', async () => {
    const { server, transport } = await setup((req) => {
      req.socket.resetAndDestroy();
    });
    const error = await rejectionOf(transport.request('PATCH', '/api/v2/firewall/alias', { body: '{"a":1}' }));
    expect(error).toBeInstanceOf(TransportConnectionError);
    expect(error).toMatchObject({ code: 'CONNECTION_RESET', requestWritten: true });
    expect(server.countFor('/api/v2/firewall/alias')).toBe(1);
  });

  it('a connection closed without a response: CONNECTION_RESET, requestWritten true, one request', async () => {
    const { server, transport } = await setup((req) => {
      req.socket.end();
    });
    const error = await rejectionOf(transport.request('POST', '/x', { body: '{}' }));
    expect(error).toMatchObject({ name: 'TransportConnectionError', code: 'CONNECTION_RESET', requestWritten: true });
    expect(server.countFor('/x')).toBe(1);
  });

  it('no response in time: RESPONSE_TIMEOUT, requestWritten true, one request', async () => {
    const { server, transport } = await setup(() => undefined, { responseTimeoutMs: 200 });
    const error = await rejectionOf(transport.request('PATCH', '/slow', { body: '{}' }));
    expect(error).toBeInstanceOf(TransportTimeoutError);
    expect(error).toMatchObject({ code: 'RESPONSE_TIMEOUT', requestWritten: true });
    expect(server.countFor('/slow')).toBe(1);
  });

  it('a body that stalls after the headers: RESPONSE_TIMEOUT, requestWritten true', async () => {
    const { transport } = await setup(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"partial":');
      },
      { responseTimeoutMs: 200 },
    );
    const error = await rejectionOf(transport.request('GET', '/stall'));
    expect(error).toMatchObject({ name: 'TransportTimeoutError', code: 'RESPONSE_TIMEOUT', requestWritten: true });
  });

  it('connection refused: CONNECTION_REFUSED, requestWritten false', async () => {
    const port = await freePort();
    const transport = createHttpTransport({ baseUrl: `http://127.0.0.1:${port}`, allowHttpLoopback: true });
    cleanups.push(() => transport.close());
    const error = await rejectionOf(transport.request('PATCH', '/api/v2/firewall/alias', { body: '{}' }));
    expect(error).toBeInstanceOf(TransportConnectionError);
    expect(error).toMatchObject({ code: 'CONNECTION_REFUSED', requestWritten: false, upstreamCode: 'ECONNREFUSED' });
  });

  it('a body that is not UTF-8 is a typed error, not mojibake', async () => {
    const { transport } = await setup((_req, res) => {
      res.writeHead(200);
      res.end(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]));
    });
    const error = await rejectionOf(transport.request('GET', '/bin'));
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ code: 'BODY_NOT_UTF8', requestWritten: true });
  });
});

describe('response size cap', () => {
  it('an endless chunked body is cut while streaming: typed error, connection destroyed', async () => {
    let serverSawClose = false;
    let serverFinished = false;
    const { server, transport } = await setup(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(16 * 1024, 0x20);
        // Writes forever unless the client goes away: buffering everything before checking would
        // never finish, so only a streaming cap can make this test pass.
        const pump = (): void => {
          while (!res.destroyed && res.write(chunk)) {
            /* keep writing until backpressure */
          }
          if (!res.destroyed) res.once('drain', pump);
        };
        res.on('close', () => {
          serverSawClose = true;
          serverFinished = res.writableFinished;
        });
        pump();
      },
      { maxResponseBytes: 256 * 1024 },
    );
    const error = await rejectionOf(transport.request('GET', '/huge'));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ code: 'RESPONSE_TOO_LARGE', requestWritten: true, limitBytes: 256 * 1024 });
    await expect.poll(() => serverSawClose).toBe(true);
    expect(serverFinished).toBe(false);
    expect(server.countFor('/huge')).toBe(1);
  });

  it('a declared Content-Length over the cap is refused before reading the body', async () => {
    const { transport } = await setup(
      (_req, res) => {
        res.writeHead(200, { 'content-length': String(2048) });
        res.end(Buffer.alloc(2048, 0x61));
      },
      { maxResponseBytes: 1024 },
    );
    const error = await rejectionOf(transport.request('GET', '/cl'));
    expect(error).toMatchObject({ name: 'ResponseTooLargeError', code: 'RESPONSE_TOO_LARGE' });
  });

  it('a body of exactly the cap is accepted, one byte more is not', async () => {
    const { transport } = await setup(
      (req, res) => {
        const n = req.url === '/exact' ? 1000 : 1001;
        res.writeHead(200, { 'transfer-encoding': 'chunked' });
        res.end('x'.repeat(n));
      },
      { maxResponseBytes: 1000 },
    );
    expect((await transport.request('GET', '/exact')).body).toHaveLength(1000);
    await expect(transport.request('GET', '/over')).rejects.toBeInstanceOf(ResponseTooLargeError);
  });
});

describe('requests in flight', () => {
  async function maxConcurrent(maxInFlight: number | undefined, calls: number): Promise<number> {
    const { server, transport } = await setup(
      (_req, res) => {
        // Each response is held for a while, so unbounded calls would all be open at once; held
        // requests are let go early only if the bound is already exceeded (no point waiting).
        const timer = setTimeout(() => json(res, 200, {}), 300);
        if (server.stats.concurrent > (maxInFlight ?? 4)) {
          clearTimeout(timer);
          json(res, 200, {});
        }
      },
      maxInFlight === undefined ? {} : { maxInFlight },
    );
    const results = await Promise.all(Array.from({ length: calls }, (_, i) => transport.request('GET', '/api/v2/x', { query: { i } })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(server.received).toHaveLength(calls);
    return server.stats.maxConcurrent;
  }

  it('10 parallel calls with maxInFlight 4 reach the server at most 4 at a time', async () => {
    expect(await maxConcurrent(4, 10)).toBe(4);
  });

  it('defaults to 4', async () => {
    expect(await maxConcurrent(undefined, 10)).toBe(4);
  });

  it('maxInFlight 1 serializes', async () => {
    expect(await maxConcurrent(1, 5)).toBe(1);
  });
});

describe('connection reuse', () => {
  it('a reset on a reused keep-alive connection is still "written"', async () => {
    let n = 0;
    const { server, transport } = await setup((req, res) => {
      n += 1;
      if (n === 1) json(res, 200, {});
      else req.socket.resetAndDestroy();
    });
    await transport.request('GET', '/first');
    const error = await rejectionOf(transport.request('PATCH', '/second', { body: '{}' }));
    expect(error).toMatchObject({ code: 'CONNECTION_RESET', requestWritten: true });
    expect(server.stats.connections).toBe(1);
    expect(server.countFor('/second')).toBe(1);
  });

  it('keepAlive false opens a connection per request', async () => {
    const { server, transport } = await setup((_req, res) => json(res, 200, {}), { keepAlive: false });
    await transport.request('GET', '/a');
    await transport.request('GET', '/b');
    expect(server.stats.connections).toBe(2);
  });
});
