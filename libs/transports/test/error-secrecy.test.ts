// Sentinel secrets (API key, request body, path) must not surface in any error: message, stack,
// own properties, JSON or util.inspect with hidden fields — whatever the failure.
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpTransport, TransportError, type HttpTransportOptions } from '../src/index.js';
import {
  freePort,
  makeCertificate,
  rejectionOf,
  startHttpServer,
  startHttpsServer,
  type LoopbackServer,
  type TestCertificate,
} from './support/loopback-servers.js';

const KEY = 'SENTINEL-API-KEY-7c1e9f0b2d';
const BODY_SECRET = 'SENTINEL-BODY-55aa';
const PATH_SECRET = 'SENTINELPATH';
let http: LoopbackServer;
let https: LoopbackServer;
let cert: TestCertificate;

beforeAll(async () => {
  cert = makeCertificate();
  http = await startHttpServer((req, res) => {
    if (req.url?.startsWith('/reset')) req.socket.resetAndDestroy();
    else if (req.url?.startsWith('/hang')) return;
    else {
      res.writeHead(200, { 'x-echo': KEY });
      res.end('x'.repeat(4096) + KEY);
    }
  });
  https = await startHttpsServer(cert, (_req, res) => res.end('{}'));
});
afterAll(async () => {
  await http.close();
  await https.close();
  cert.remove();
});

function assertClean(error: unknown): void {
  expect(error).toBeInstanceOf(TransportError);
  const texts = [String(error), (error as Error).stack ?? '', JSON.stringify(error), inspect(error, { showHidden: true, depth: 10 })];
  for (const text of texts) {
    for (const secret of [KEY, BODY_SECRET, PATH_SECRET, '127.0.0.1']) expect(text).not.toContain(secret);
  }
  expect((error as Error).cause).toBeUndefined();
}

async function failWith(baseUrl: string, path: string, extra: Partial<HttpTransportOptions> = {}): Promise<unknown> {
  const transport = createHttpTransport({
    baseUrl,
    allowHttpLoopback: true,
    authHeader: { name: 'X-API-Key', value: KEY },
    responseTimeoutMs: 200,
    ...extra,
  });
  try {
    return await rejectionOf(
      transport.request('PATCH', `/${path}/${PATH_SECRET}`, { query: { q: PATH_SECRET }, body: JSON.stringify({ s: BODY_SECRET }) }),
    );
  } finally {
    transport.close();
  }
}

describe('errors carry no secret', () => {
  it('connection refused', async () => {
    assertClean(await failWith(`http://127.0.0.1:${await freePort()}`, 'x'));
  });
  it('reset', async () => {
    assertClean(await failWith(http.url, 'reset'));
  });
  it('timeout', async () => {
    assertClean(await failWith(http.url, 'hang'));
  });
  it('response too large (the body holds the key)', async () => {
    assertClean(await failWith(http.url, 'big', { maxResponseBytes: 1024 }));
  });
  it('TLS failure', async () => {
    assertClean(await failWith(https.url, 'tls'));
  });
  it('the key reaches the server, so the sentinel is real', async () => {
    expect(http.received.some((r) => r.headers['x-api-key'] === KEY)).toBe(true);
  });
});
