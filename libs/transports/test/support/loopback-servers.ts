// Real loopback servers for the transport tests (127.0.0.1 only), with the counters the tests
// assert on: requests seen per path, concurrency, headers and bodies as received.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';

export interface ReceivedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

export type TestHandler = (req: IncomingMessage, res: ServerResponse, received: ReceivedRequest) => void;

export interface LoopbackServer {
  readonly url: string;
  readonly port: number;
  readonly received: ReceivedRequest[];
  readonly sockets: Set<Socket>;
  readonly stats: { concurrent: number; maxConcurrent: number; connections: number };
  countFor(path: string): number;
  close(): Promise<void>;
}

function wrap(server: Server, protocol: 'http' | 'https', handler: TestHandler): Promise<LoopbackServer> {
  const received: ReceivedRequest[] = [];
  const sockets = new Set<Socket>();
  const stats = { concurrent: 0, maxConcurrent: 0, connections: 0 };
  server.on(protocol === 'https' ? 'secureConnection' : 'connection', (socket: Socket) => {
    stats.connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    stats.concurrent += 1;
    stats.maxConcurrent = Math.max(stats.maxConcurrent, stats.concurrent);
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      stats.concurrent -= 1;
    };
    res.on('close', finish);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: ReceivedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(r);
      handler(req, res, r);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `${protocol}://127.0.0.1:${port}`,
        port,
        received,
        sockets,
        stats,
        countFor: (path) => received.filter((r) => r.url.split('?')[0] === path).length,
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** `keepAliveTimeoutMs` 0 keeps idle connections open forever and sends no Keep-Alive hint. */
export function startHttpServer(handler: TestHandler, options: { keepAliveTimeoutMs?: number } = {}): Promise<LoopbackServer> {
  const server = createHttpServer();
  if (options.keepAliveTimeoutMs !== undefined) server.keepAliveTimeout = options.keepAliveTimeoutMs;
  return wrap(server, 'http', handler);
}

export function startHttpsServer(cert: TestCertificate, handler: TestHandler): Promise<LoopbackServer> {
  return wrap(createHttpsServer({ key: readFileSync(cert.keyPath), cert: readFileSync(cert.certPath) }), 'https', handler);
}

export interface TestCertificate {
  readonly dir: string;
  readonly keyPath: string;
  readonly certPath: string;
  remove(): void;
}

/** A self-signed P-256 certificate for `ip`, generated now with openssl into a temp dir. */
export function makeCertificate(ip = '127.0.0.1'): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'transports-tls-'));
  const keyPath = join(dir, 'k.pem');
  const certPath = join(dir, 'c.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyPath,
      '-out',
      certPath,
      '-days',
      '1',
      '-subj',
      `/CN=${ip}`,
      '-addext',
      `subjectAltName=IP:${ip}`,
    ],
    { stdio: 'ignore' },
  );
  return { dir, keyPath, certPath, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A TCP server that accepts and never says a word (a TLS handshake that never completes). */
export function startSilentTcpServer(): Promise<{ url: string; accepted: () => number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server: NetServer = createNetServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `https://127.0.0.1:${port}`,
        accepted: () => accepted,
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

/** A loopback port with nothing listening (bound, then released). */
export function freePort(): Promise<number> {
  const server = createNetServer();
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves with the rejection of `p` (fails the test if `p` resolves). */
export async function rejectionOf(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}
