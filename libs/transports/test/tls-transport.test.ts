import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHttpTransport, TransportConnectionError, TransportTimeoutError } from '../src/index.js';
import {
  makeCertificate,
  rejectionOf,
  startHttpsServer,
  startSilentTcpServer,
  type LoopbackServer,
  type TestCertificate,
} from './support/loopback-servers.js';

let cert: TestCertificate;
let server: LoopbackServer;
const cleanups: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  cert = makeCertificate();
  server = await startHttpsServer(cert, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"tls":true}');
  });
});
afterAll(async () => {
  await server.close();
  cert.remove();
});
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

describe('TLS', () => {
  it('refuses a self-signed appliance certificate without caFile: TLS_FAILURE, nothing written', async () => {
    const before = server.received.length;
    const transport = createHttpTransport({ baseUrl: server.url });
    cleanups.push(() => transport.close());
    const error = await rejectionOf(transport.request('PATCH', '/api/v2/firewall/alias', { body: '{}' }));
    expect(error).toBeInstanceOf(TransportConnectionError);
    expect(error).toMatchObject({ code: 'TLS_FAILURE', requestWritten: false });
    expect(server.received.length).toBe(before);
  });

  it('accepts it with the CA file, on a reused connection too', async () => {
    const transport = createHttpTransport({ baseUrl: server.url, caFile: cert.certPath });
    cleanups.push(() => transport.close());
    const first = await transport.request('GET', '/api/v2/status/system');
    const second = await transport.request('GET', '/api/v2/status/system');
    expect(first).toMatchObject({ status: 200, body: '{"tls":true}' });
    expect(second.status).toBe(200);
  });

  it('does not disable verification globally', async () => {
    const transport = createHttpTransport({ baseUrl: server.url, caFile: cert.certPath });
    cleanups.push(() => transport.close());
    await transport.request('GET', '/x');
    expect(process.env.NODE_TLS_REJECT_UNAUTHORIZED).toBeUndefined();
  });

  it('refuses a trusted certificate issued for another address', async () => {
    const other = makeCertificate('127.0.0.2');
    cleanups.push(() => other.remove());
    const misnamed = await startHttpsServer(other, (_req, res) => res.end('{}'));
    cleanups.push(() => misnamed.close());
    const transport = createHttpTransport({ baseUrl: misnamed.url, caFile: other.certPath });
    cleanups.push(() => transport.close());
    const error = await rejectionOf(transport.request('GET', '/x'));
    expect(error).toMatchObject({ name: 'TransportConnectionError', code: 'TLS_FAILURE', requestWritten: false });
    expect(misnamed.received).toHaveLength(0);
  });

  it('a handshake that never completes is a CONNECT_TIMEOUT with nothing written', async () => {
    const silent = await startSilentTcpServer();
    cleanups.push(() => silent.close());
    const transport = createHttpTransport({ baseUrl: silent.url, caFile: cert.certPath, connectTimeoutMs: 200 });
    cleanups.push(() => transport.close());
    const error = await rejectionOf(transport.request('PATCH', '/api/v2/firewall/alias', { body: '{}' }));
    expect(error).toBeInstanceOf(TransportTimeoutError);
    expect(error).toMatchObject({ code: 'CONNECT_TIMEOUT', requestWritten: false });
    expect(silent.accepted()).toBe(1);
  });
});
