// startSimulator: the HTTP(S) server tying router, faults, counters and the control endpoint together.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { prepareApiKey } from './api-key-file.js';
import { controlAccess } from './control-gate.js';
import { AUTH_MODES, Authenticator, type AuthMode, type Credential } from './auth.js';
import { loadPayloads, readDataFile } from './data-file.js';
import { DataStore, type PathData } from './data-store.js';
import { seedDemoData } from './demo-data.js';
import { errorEnvelope } from './envelope.js';
import { FaultBook, type FaultSpec } from './fault-injection.js';
import { NGINX_404, NGINX_413 } from './nginx-pages.js';
import { PAGE_ALL } from './privileges.js';
import { RequestCounters } from './request-counters.js';
import { routeApiRequest, type ApiResult } from './router.js';
import { createControl, handleControl, type SimulatorControl } from './simulator-control.js';

export interface SimulatorOptions {
  /** TCP port; 0 (default) picks a free one. */
  readonly port?: number;
  /** Bind address; default 127.0.0.1. Anything but loopback needs allowRemote. */
  readonly host?: string;
  readonly allowRemote?: boolean;
  /** Admin API key (page-all). Default: read from apiKeyFile if it exists, else generated. */
  readonly apiKey?: string;
  /** Key file: read if present, else a generated key is written there (0600). */
  readonly apiKeyFile?: string;
  /** Without apiKey/apiKeyFile: also write the generated key into a private temp dir (the CLI does). */
  readonly writeApiKeyFile?: boolean;
  /** Extra least-privilege credentials (the admin key and admin:<key> Basic login always stay). */
  readonly credentials?: readonly Credential[];
  /** Enabled auth methods; default all three. */
  readonly auth?: readonly AuthMode[];
  /** Payloads (path → data) served verbatim, replacing the seeded data for those paths. */
  readonly data?: Readonly<Record<string, unknown>>;
  /** A JSON file of such payloads (applied before `data`). */
  readonly dataFile?: string;
  /** Persist mutations here and load them at start. */
  readonly stateFile?: string;
  /** Demo data seed; default "pfsense-sim". */
  readonly seed?: string;
  /** PEM certificate and key: serve HTTPS. */
  readonly tls?: { readonly cert: string | Buffer; readonly key: string | Buffer };
  readonly faults?: readonly FaultSpec[];
  /** One line per request (method, path, status, fault) — never bodies or headers. */
  readonly log?: (line: string) => void;
  /**
   * Clock for the "Entry added <date>" alias details only; default the system clock. The demo data is
   * dated from a fixed reference date (same seed → same data), and JWT expiry always uses the system clock.
   */
  readonly now?: () => Date;
  /** Largest request body accepted (bytes); default 1 MiB. */
  readonly maxBodyBytes?: number;
  /**
   * How long an idle keep-alive connection is kept before the server closes it; default Node's 5 s.
   * Short values let tests reach the idle close quickly; 0 never closes one (and sends no Keep-Alive hint).
   */
  readonly keepAliveTimeoutMs?: number;
}

export interface RunningSimulator {
  readonly url: string;
  readonly apiKey: string;
  readonly apiKeyFile?: string;
  readonly control: SimulatorControl;
  close(): Promise<void>;
}

const CONTROL_PREFIX = '/__sim/';

export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

function validate(options: SimulatorOptions): void {
  if (options.port !== undefined && (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535)) {
    throw new RangeError('startSimulator: "port" must be an integer 0–65535');
  }
  const host = options.host ?? '127.0.0.1';
  if (typeof host !== 'string' || host.length === 0) throw new TypeError('startSimulator: "host" must be a non-empty string');
  if (!isLoopbackHost(host) && options.allowRemote !== true) {
    throw new RangeError('startSimulator: "host" must be a loopback address unless allowRemote is set');
  }
  if (options.maxBodyBytes !== undefined && (!Number.isSafeInteger(options.maxBodyBytes) || options.maxBodyBytes <= 0)) {
    throw new RangeError('startSimulator: "maxBodyBytes" must be a positive safe integer');
  }
  if (
    options.keepAliveTimeoutMs !== undefined &&
    (!Number.isSafeInteger(options.keepAliveTimeoutMs) || options.keepAliveTimeoutMs < 0 || options.keepAliveTimeoutMs > 600_000)
  ) {
    throw new RangeError('startSimulator: "keepAliveTimeoutMs" must be an integer 0–600000');
  }
  if (options.now !== undefined && typeof options.now !== 'function')
    throw new TypeError('startSimulator: "now" must be a function returning a Date');
  if (options.tls !== undefined) {
    const pem = (v: unknown): boolean => (typeof v === 'string' || Buffer.isBuffer(v)) && v.length > 0;
    if (typeof options.tls !== 'object' || options.tls === null || !pem(options.tls.cert) || !pem(options.tls.key)) {
      throw new TypeError('startSimulator: "tls" must be {cert, key}, each a non-empty PEM string or Buffer');
    }
  }
  if (
    options.auth !== undefined &&
    (options.auth.length === 0 || options.auth.some((m) => !(AUTH_MODES as readonly string[]).includes(m)))
  ) {
    throw new TypeError('startSimulator: "auth" must list one or more of key, basic, jwt');
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function readBody(req: IncomingMessage, max: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) over = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(over ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, contentType: string, body: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { server: 'nginx', 'content-type': contentType, 'content-length': Buffer.byteLength(body), ...extra });
  res.end(body);
}

function streamOversized(res: ServerResponse, bytes: number): void {
  res.writeHead(200, { server: 'nginx', 'content-type': 'application/json' });
  const head = '{"code":200,"status":"ok","response_id":"SUCCESS","message":"","data":[';
  const item = JSON.stringify({ name: 'PADDING', type: 'host', descr: 'x'.repeat(960), address: [], detail: [] });
  let sent = head.length;
  res.write(head);
  let first = true;
  const pump = (): void => {
    while (sent < bytes) {
      const chunk = (first ? '' : ',') + item;
      first = false;
      sent += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
    res.end(']}');
  };
  res.on('close', () => res.removeAllListeners('drain'));
  pump();
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  if (typeof options !== 'object' || options === null) throw new TypeError('startSimulator: "options" must be an object');
  validate(options);
  const now = options.now ?? ((): Date => new Date());
  const log = options.log ?? ((): void => undefined);
  const key = prepareApiKey({ apiKey: options.apiKey, apiKeyFile: options.apiKeyFile, writeTempFile: options.writeApiKeyFile });
  const credentials: Credential[] = [
    { auth: 'key', secret: key.apiKey, privileges: [PAGE_ALL] },
    { auth: 'basic', secret: `admin:${key.apiKey}`, privileges: [PAGE_ALL] },
    ...(options.credentials ?? []),
  ];
  const auth = new Authenticator(options.auth ?? AUTH_MODES, credentials);

  const initial = seedDemoData(options.seed ?? 'pfsense-sim');
  const overlays: Map<string, PathData>[] = [];
  if (options.dataFile !== undefined) overlays.push(readDataFile(options.dataFile));
  if (options.data !== undefined) overlays.push(loadPayloads(options.data));
  for (const overlay of overlays) for (const [p, d] of overlay) initial.set(p, d);
  const store = new DataStore(initial, options.stateFile);

  const faults = new FaultBook();
  for (const f of options.faults ?? []) faults.set(f);
  const counters = new RequestCounters();
  const control = createControl(faults, counters, store);
  const maxBody = options.maxBodyBytes ?? 1024 * 1024;
  let closing = false;
  const held = new Set<Socket>();
  let baseUrl = '';

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://sim.invalid');
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    const body = await readBody(req, maxBody);
    if (body === 'too-large') {
      send(res, 413, 'text/html', NGINX_413);
      return;
    }

    if (path.startsWith(CONTROL_PREFIX.slice(0, -1))) {
      // Loopback peers holding the admin key only; anyone else sees the nginx 404 like any unknown path.
      const access = controlAccess(req.socket.remoteAddress, req.headers['x-api-key'], key.apiKey);
      if (access === 'not-found') {
        send(res, 404, 'text/html', NGINX_404);
        return;
      }
      if (access === 'unauthorized') {
        send(res, 401, 'application/json', JSON.stringify({ error: 'control endpoint needs the admin X-API-Key' }));
        return;
      }
      const out = handleControl(control, method, path, url.searchParams, body);
      send(res, out.status, 'application/json', JSON.stringify(out.body));
      return;
    }

    counters.increment(path, method);
    const fault = faults.take(path, method);
    const logLine = (status: number | string): void =>
      log(JSON.stringify({ method, path, status, ...(fault ? { fault: fault.kind } : {}) }));

    if (fault?.kind === 'latency') await sleep(fault.ms ?? 1000);
    if (closing) return;
    if (fault?.kind === 'timeout') {
      held.add(req.socket);
      logLine('held');
      return;
    }
    if (fault?.kind === 'reset-before-apply') {
      logLine('reset');
      req.socket.resetAndDestroy();
      return;
    }
    if (fault?.kind === 'redirect-3xx') {
      logLine(fault.status ?? 302);
      send(res, fault.status ?? 302, 'text/html', '', { location: `${baseUrl}/` });
      return;
    }

    const result: ApiResult | undefined = routeApiRequest(
      { method, path, search: url.searchParams, headers: req.headers, body, remoteAddress: req.socket.remoteAddress },
      { store, auth, now },
    );
    // From here on any write is committed (and persisted when a state file is set).
    if (!result) {
      logLine(404);
      send(res, 404, 'text/html', NGINX_404);
      return;
    }
    const json = JSON.stringify(result.envelope);
    switch (fault?.kind) {
      case 'reset-after-apply':
        logLine('reset');
        req.socket.resetAndDestroy();
        return;
      case 'drop-response-after-apply':
        logLine('dropped');
        req.socket.end();
        return;
      case '5xx-after-apply': {
        const status = fault.status ?? 500;
        logLine(status);
        send(res, status, 'application/json', JSON.stringify(errorEnvelope(status, 'SERVER_ERROR', 'An unexpected error occurred.')));
        return;
      }
      case 'other-2xx': {
        const status = fault.status ?? 202;
        logLine(status);
        if (status === 204 || status === 205) {
          res.writeHead(status, { server: 'nginx' });
          res.end();
        } else {
          send(res, status, 'application/json', json);
        }
        return;
      }
      case 'malformed-json':
        logLine(200);
        send(res, 200, 'application/json', json.slice(0, Math.max(1, Math.floor(json.length / 2))));
        return;
      case 'oversized-body':
        logLine(200);
        streamOversized(res, fault.bytes ?? 16 * 1024 * 1024);
        return;
      default:
        logLine(result.status);
        send(res, result.status, 'application/json', json);
    }
  }

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, 'text/html', '');
      else res.destroy();
    });
  };
  const server: Server = options.tls
    ? createHttpsServer({ cert: options.tls.cert, key: options.tls.key }, listener)
    : createHttpServer(listener);
  // Held "timeout" requests must not be cut by Node's own request timeout.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  if (options.keepAliveTimeoutMs !== undefined) server.keepAliveTimeout = options.keepAliveTimeoutMs;

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' || address.address.includes(':') ? `[${address.address}]` : address.address;
  baseUrl = `${options.tls ? 'https' : 'http'}://${hostPart}:${address.port}`;

  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= new Promise<void>((resolve) => {
      closing = true;
      // The key file goes first and synchronously: whatever happens to the process while the server
      // drains (a second signal, a crash), no generated key is left on disk.
      key.cleanup();
      for (const s of held) s.destroy();
      held.clear();
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closed;
  };

  return Object.freeze({
    url: baseUrl,
    apiKey: key.apiKey,
    ...(key.apiKeyFile !== undefined ? { apiKeyFile: key.apiKeyFile } : {}),
    control,
    close,
  });
}
