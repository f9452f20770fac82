import { lstatSync, readFileSync } from 'node:fs';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { isIPv4 } from 'node:net';
import type { HttpMethod } from '@pfsense-mcp/foundation';
import { InFlightLimiter } from './in-flight-limiter.js';
import {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_FREE_SOCKET_TIMEOUT_MS,
  DEFAULT_MAX_IN_FLIGHT,
  DEFAULT_MAX_QUEUED,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_QUEUE_TIMEOUT_MS,
  DEFAULT_RESPONSE_TIMEOUT_MS,
} from './transport-defaults.js';
import { sendHttpRequest, type AttemptTrace, type SendSettings } from './send-http-request.js';
import { TransportConfigError, TransportConnectionError } from './transport-error.js';
import type { Transport, TransportRequestOptions } from './transport.js';
import { validateRequest, type ValidatedRequest } from './validate-request.js';

const MAX_TIMEOUT_MS = 10 * 60_000;
const MAX_RESPONSE_BYTES_CEILING = 256 * 1024 * 1024;
const MAX_IN_FLIGHT_CEILING = 64;
const MAX_QUEUED_CEILING = 100_000;
const MAX_CA_FILE_BYTES = 1024 * 1024;
const USER_AGENT = 'pfsense-mcp';

export interface HttpTransportOptions {
  /** https://host[:port][/prefix]. Plain http only with allowHttpLoopback and a loopback host. */
  readonly baseUrl: string;
  /** Sent on every request, e.g. { name: 'X-API-Key', value }. The value is never logged or echoed. */
  readonly authHeader?: { readonly name: string; readonly value: string };
  /** PEM file of the CA(s) that sign the appliance certificate; replaces the default trust store. */
  readonly caFile?: string;
  readonly allowHttpLoopback?: boolean;
  /** TCP connect plus TLS handshake (each phase bounded by this). Default 10 s. */
  readonly connectTimeoutMs?: number;
  /** Request sent → response headers, and again response headers → last body byte. Default 30 s. */
  readonly responseTimeoutMs?: number;
  /** Default 8 MiB. A bigger response is a ResponseTooLargeError. */
  readonly maxResponseBytes?: number;
  /** Requests on the wire at once; more wait in FIFO order. Default 4. */
  readonly maxInFlight?: number;
  /** Requests waiting for an in-flight slot at once; one more fails at once with `BUSY`. Default 64. */
  readonly maxQueued?: number;
  /** Longest wait for an in-flight slot (`QUEUE_TIMEOUT` past it); 0 = none. Default 10 s. */
  readonly queueTimeoutMs?: number;
  /** Reuse connections between requests. Default true. */
  readonly keepAlive?: boolean;
  /** An idle pooled connection is closed after this long (a shorter server hint wins). Default 4 s. */
  readonly freeSocketTimeoutMs?: number;
}

export interface HttpTransport extends Transport {
  /** Destroys pooled connections. Requests already running finish or fail on their own. */
  close(): void;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,64}$/;
const HEADER_VALUE = /^[\x21-\x7e](?:[\x20-\x7e]{0,8190}[\x21-\x7e])?$/;
// Headers the transport owns: letting the caller set them would break framing or the content rules.
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'accept',
  'accept-encoding',
  'user-agent',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'cookie',
  'proxy-authorization',
]);

function optionalInt(value: unknown, name: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new TransportConfigError(`createHttpTransport: "${name}" must be an integer in ${min}..${max}`);
  }
  return value;
}

/** 127.0.0.0/8, ::1 and the name localhost: the only hosts plain http may reach (docs/DESIGN.md §10). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]' || host === '::1') return true;
  return isIPv4(host) && host.startsWith('127.');
}

function readCaFile(path: unknown): Buffer {
  if (typeof path !== 'string' || path.length === 0 || path.length > 4096) {
    throw new TransportConfigError('createHttpTransport: "caFile" must be a non-empty path');
  }
  let pem: Buffer;
  try {
    const stat = lstatSync(path);
    if (!stat.isFile()) throw new Error('not a file');
    if (stat.size > MAX_CA_FILE_BYTES) throw new Error('too large');
    pem = readFileSync(path);
  } catch {
    throw new TransportConfigError('createHttpTransport: "caFile" is not a readable regular file', 'CA_FILE_UNREADABLE');
  }
  if (!pem.toString('latin1').includes('-----BEGIN CERTIFICATE-----')) {
    throw new TransportConfigError('createHttpTransport: "caFile" holds no PEM certificate', 'CA_FILE_INVALID');
  }
  return pem;
}

export function createHttpTransport(options: HttpTransportOptions): HttpTransport {
  if (options === null || typeof options !== 'object') {
    throw new TransportConfigError('createHttpTransport: "options" must be an object');
  }
  const { baseUrl } = options;
  if (typeof baseUrl !== 'string' || baseUrl.length === 0 || baseUrl.length > 2048) {
    throw new TransportConfigError('createHttpTransport: "baseUrl" must be a non-empty URL string');
  }
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    // The text is not echoed: a mistyped URL may still carry credentials.
    throw new TransportConfigError('createHttpTransport: "baseUrl" is not a valid URL');
  }
  if (url.username !== '' || url.password !== '') {
    throw new TransportConfigError('createHttpTransport: "baseUrl" must not contain credentials; use authHeader');
  }
  if (url.search !== '' || url.hash !== '' || baseUrl.includes('?') || baseUrl.includes('#')) {
    throw new TransportConfigError('createHttpTransport: "baseUrl" must not have a query or fragment');
  }
  const isHttps = url.protocol === 'https:';
  if (!isHttps) {
    if (url.protocol !== 'http:') {
      throw new TransportConfigError('createHttpTransport: "baseUrl" must be https', 'INSECURE_URL');
    }
    if (options.allowHttpLoopback !== true || !isLoopbackHost(url.hostname)) {
      throw new TransportConfigError(
        'createHttpTransport: plain http is refused; use https (http only to a loopback host with allowHttpLoopback)',
        'INSECURE_URL',
      );
    }
    if (options.caFile !== undefined) {
      throw new TransportConfigError('createHttpTransport: "caFile" has no meaning for an http baseUrl');
    }
  }
  if (options.allowHttpLoopback !== undefined && typeof options.allowHttpLoopback !== 'boolean') {
    throw new TransportConfigError('createHttpTransport: "allowHttpLoopback" must be a boolean');
  }
  if (options.keepAlive !== undefined && typeof options.keepAlive !== 'boolean') {
    throw new TransportConfigError('createHttpTransport: "keepAlive" must be a boolean');
  }

  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': USER_AGENT };
  if (options.authHeader !== undefined) {
    const { authHeader } = options;
    if (authHeader === null || typeof authHeader !== 'object') {
      throw new TransportConfigError('createHttpTransport: "authHeader" must be { name, value }');
    }
    if (typeof authHeader.name !== 'string' || !TOKEN.test(authHeader.name)) {
      throw new TransportConfigError('createHttpTransport: "authHeader.name" must be an HTTP header name');
    }
    const name = authHeader.name.toLowerCase();
    if (RESERVED_HEADERS.has(name)) {
      throw new TransportConfigError('createHttpTransport: "authHeader.name" names a header the transport owns');
    }
    if (typeof authHeader.value !== 'string' || !HEADER_VALUE.test(authHeader.value)) {
      throw new TransportConfigError(
        'createHttpTransport: "authHeader.value" must be 1..8192 printable ASCII characters without surrounding spaces',
      );
    }
    headers[name] = authHeader.value;
  }

  const connectTimeoutMs = optionalInt(options.connectTimeoutMs, 'connectTimeoutMs', 1, MAX_TIMEOUT_MS, DEFAULT_CONNECT_TIMEOUT_MS);
  const responseTimeoutMs = optionalInt(options.responseTimeoutMs, 'responseTimeoutMs', 1, MAX_TIMEOUT_MS, DEFAULT_RESPONSE_TIMEOUT_MS);
  const maxResponseBytes = optionalInt(
    options.maxResponseBytes,
    'maxResponseBytes',
    1,
    MAX_RESPONSE_BYTES_CEILING,
    DEFAULT_MAX_RESPONSE_BYTES,
  );
  const maxInFlight = optionalInt(options.maxInFlight, 'maxInFlight', 1, MAX_IN_FLIGHT_CEILING, DEFAULT_MAX_IN_FLIGHT);
  const maxQueued = optionalInt(options.maxQueued, 'maxQueued', 0, MAX_QUEUED_CEILING, DEFAULT_MAX_QUEUED);
  const queueTimeoutMs = optionalInt(options.queueTimeoutMs, 'queueTimeoutMs', 0, MAX_TIMEOUT_MS, DEFAULT_QUEUE_TIMEOUT_MS);
  const ca = isHttps && options.caFile !== undefined ? readCaFile(options.caFile) : undefined;
  const freeSocketTimeoutMs = optionalInt(
    options.freeSocketTimeoutMs,
    'freeSocketTimeoutMs',
    1,
    MAX_TIMEOUT_MS,
    DEFAULT_FREE_SOCKET_TIMEOUT_MS,
  );
  const keepAlive = options.keepAlive ?? true;
  // A private agent per transport: its own pool, sized to the in-flight bound, never the global one.
  // `timeout` is what Node's agent uses to close idle pooled sockets (it also honours a shorter
  // Keep-Alive hint from the server); on a socket in use it only emits an event nobody acts on — the
  // request's own timeouts are sendHttpRequest's.
  const agentOptions = { keepAlive, maxSockets: maxInFlight, maxFreeSockets: maxInFlight, timeout: freeSocketTimeoutMs };
  const agent = isHttps ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions);

  const settings: SendSettings = Object.freeze({
    https: isHttps,
    // node:http takes an IPv6 literal without its URL brackets.
    hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
    port: url.port === '' ? undefined : Number(url.port),
    basePath: url.pathname.replace(/\/+$/, ''),
    headers: Object.freeze(headers),
    ca,
    connectTimeoutMs,
    responseTimeoutMs,
    maxResponseBytes,
    agent,
  });
  const limiter = new InFlightLimiter(maxInFlight, { maxQueued, queueTimeoutMs });

  const transport: HttpTransport = {
    async request(method: HttpMethod, path: string, requestOptions?: TransportRequestOptions) {
      const request = validateRequest(method, path, requestOptions);
      const signal = requestOptions?.signal;
      const release = await limiter.acquire(signal);
      try {
        const trace = newTrace();
        try {
          return await sendHttpRequest(settings, request, signal, trace);
        } catch (error) {
          if (!isSafeToResend(request, error, trace, signal)) throw error;
        }
        // The one resend, on the same in-flight slot; its failure is reported as it is.
        return await sendHttpRequest(settings, request, signal, newTrace());
      } finally {
        release();
      }
    },
    close() {
      agent.destroy();
    },
  };
  return Object.freeze(transport);
}

function newTrace(): AttemptTrace {
  return { reusedSocket: false, responseBytes: false };
}

/**
 * A GET that died on a pooled connection before one response byte came back is the keep-alive race:
 * the server closed the idle connection while our request was on its way. GET changes nothing, so it
 * is sent once more (on a fresh or another pooled connection). Never any other method: a write is
 * never sent twice (docs/DESIGN.md §4); its reset stays CONNECTION_RESET, maybe written.
 */
function isSafeToResend(request: ValidatedRequest, error: unknown, trace: AttemptTrace, signal: AbortSignal | undefined): boolean {
  if (request.method !== 'GET' || signal?.aborted === true) return false;
  if (!(error instanceof TransportConnectionError) || error.code !== 'CONNECTION_RESET') return false;
  return trace.reusedSocket && !trace.responseBytes;
}
