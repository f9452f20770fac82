import { request as httpRequest, type Agent as HttpAgent, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest, type Agent as HttpsAgent, type RequestOptions } from 'node:https';
import type { Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import { classifyTransportFailure, type WritePhase } from './classify-transport-failure.js';
import { ResponseTooLargeError, TransportError, TransportTimeoutError } from './transport-error.js';
import type { TransportResponse } from './transport.js';
import type { ValidatedRequest } from './validate-request.js';

/** What one transport instance fixes for all its requests (built and checked by createHttpTransport). */
export interface SendSettings {
  readonly https: boolean;
  /** The host as node:http takes it: no brackets around an IPv6 literal. */
  readonly hostname: string;
  readonly port: number | undefined;
  readonly basePath: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly ca: Buffer | undefined;
  readonly connectTimeoutMs: number;
  readonly responseTimeoutMs: number;
  readonly maxResponseBytes: number;
  readonly agent: HttpAgent | HttpsAgent;
}

/** What one attempt saw on its socket: whether it came from the pool, and whether the peer answered. */
export interface AttemptTrace {
  reusedSocket: boolean;
  /** Response data reached the HTTP parser (a TLS close alert is not data: it ends the stream). */
  responseBytes: boolean;
}

function pathWithQuery(settings: SendSettings, request: ValidatedRequest): string {
  let path = settings.basePath + request.path;
  if (request.query !== null) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(request.query)) params.append(key, String(value));
    const encoded = params.toString();
    if (encoded !== '') path += `?${encoded}`;
  }
  return path;
}

function flattenHeaders(raw: IncomingMessage['headers']): Readonly<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    Object.defineProperty(out, name, {
      value: Array.isArray(value) ? value.join(', ') : value,
      enumerable: true,
    });
  }
  return Object.freeze(out);
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * One attempt over node:http(s): no retry, no redirect (a 3xx is returned as it is), no decompression (no
 * Accept-Encoding is sent, so the byte cap counts what we keep). Timeouts, each its own phase: DNS, TCP connect
 * and the TLS handshake by `connectTimeoutMs`; sending the request, waiting for the headers and reading the
 * body by `responseTimeoutMs`. Whether a byte of the request can have left is what the socket saw (`phase`),
 * never guessed from an error's text.
 */
export function sendHttpRequest(
  settings: SendSettings,
  request: ValidatedRequest,
  signal: AbortSignal | undefined,
  trace: AttemptTrace,
): Promise<TransportResponse> {
  const headers: Record<string, string> = { ...settings.headers };
  // No Content-Type without a body: pfrest ignores the query string of a GET that claims JSON.
  if (request.body !== null) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(request.body));
  }
  const options: RequestOptions = {
    hostname: settings.hostname,
    ...(settings.port !== undefined ? { port: settings.port } : {}),
    path: pathWithQuery(settings, request),
    method: request.method,
    headers,
    agent: settings.agent,
    ...(settings.https
      ? { rejectUnauthorized: true, minVersion: 'TLSv1.2' as const, ...(settings.ca !== undefined ? { ca: settings.ca } : {}) }
      : {}),
  };

  return new Promise<TransportResponse>((resolve, reject) => {
    let phase: WritePhase = 'not-started';
    let settled = false;
    let timer: NodeJS.Timeout | null = null;
    let req: ClientRequest | null = null;

    const clearTimer = (): void => {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    };
    const finish = (error: TransportError | null, response?: TransportResponse): void => {
      if (settled) return;
      settled = true;
      clearTimer();
      signal?.removeEventListener('abort', onAbort);
      if (error !== null) {
        // Destroys the request and its socket: the rest of a body is never read, the connection never
        // returns to the pool.
        req?.destroy();
        reject(error);
      } else resolve(response as TransportResponse);
    };
    /** Arms the one phase timer: a phase that outlasts `ms` fails the attempt with `onTimeout()`. */
    const arm = (ms: number, onTimeout: () => TransportError): void => {
      clearTimer();
      timer = setTimeout(() => finish(onTimeout()), ms);
    };
    const written = (canHappenAfterConnect: boolean): boolean =>
      phase === 'connected' ? true : phase === 'connecting' ? false : canHappenAfterConnect;
    const connectTimeout = (): TransportError => new TransportTimeoutError('CONNECT_TIMEOUT', written(false), 'ETIMEDOUT');
    const responseTimeout = (): TransportError => new TransportTimeoutError('RESPONSE_TIMEOUT', written(true), 'ETIMEDOUT');
    // The caller gave up: the connection is destroyed; whether a byte left is what the socket saw.
    const cancelled = (): TransportError => new TransportError('transport: the request was cancelled', 'CANCELLED', phase === 'connected');
    function onAbort(): void {
      finish(cancelled());
    }

    if (signal?.aborted === true) {
      finish(cancelled());
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });

    let clientRequest: ClientRequest;
    try {
      clientRequest = (settings.https ? httpsRequest : httpRequest)(options);
    } catch (error) {
      finish(classifyTransportFailure(error, phase));
      return;
    }
    req = clientRequest;
    // Until a socket is assigned and connected, the connect timeout runs (DNS is its first phase).
    arm(settings.connectTimeoutMs, connectTimeout);

    const connected = (): void => {
      phase = 'connected';
      // Sending the request, then waiting for the response headers: each bounded by the response timeout.
      arm(settings.responseTimeoutMs, responseTimeout);
    };

    clientRequest.once('socket', (socket: Socket) => {
      const onData = (): void => {
        trace.responseBytes = true;
      };
      socket.on('data', onData);
      // The socket outlives the request in the pool: the listener goes with the request.
      clientRequest.once('close', () => socket.off('data', onData));
      if (clientRequest.reusedSocket) {
        trace.reusedSocket = true;
        connected();
        return;
      }
      const secure = socket instanceof TLSSocket;
      // `authorized` is set only once the handshake verified the peer (rejectUnauthorized is on).
      if (!socket.connecting && (!secure || socket.authorized)) {
        connected();
        return;
      }
      phase = 'connecting';
      // Node holds the request bytes until TCP connect (http) or the end of the TLS handshake (https); before
      // that event nothing of the request can be on the wire. Each step restarts the connect timeout.
      socket.once('lookup', () => {
        if (phase === 'connecting') arm(settings.connectTimeoutMs, connectTimeout);
      });
      if (secure) {
        socket.once('connect', () => {
          if (phase === 'connecting') arm(settings.connectTimeoutMs, connectTimeout);
        });
      }
      socket.once(secure ? 'secureConnect' : 'connect', connected);
    });
    clientRequest.once('finish', () => {
      // The request is written: now the wait for the headers (a fresh bound, as a phase of its own).
      if (phase === 'connected' && !settled) arm(settings.responseTimeoutMs, responseTimeout);
    });
    clientRequest.on('error', (error: unknown) => finish(classifyTransportFailure(error, phase)));

    clientRequest.once('response', (response: IncomingMessage) => {
      // Reading the body is the last phase, bounded as a whole by the response timeout.
      arm(settings.responseTimeoutMs, responseTimeout);
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > settings.maxResponseBytes) {
        finish(new ResponseTooLargeError(settings.maxResponseBytes));
        return;
      }
      const chunks: Buffer[] = [];
      let received = 0;
      let ended = false;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > settings.maxResponseBytes) {
          finish(new ResponseTooLargeError(settings.maxResponseBytes));
          return;
        }
        chunks.push(chunk);
      });
      response.on('error', (error: unknown) => finish(classifyTransportFailure(error, phase)));
      response.once('end', () => {
        ended = true;
        let body: string;
        try {
          body = UTF8.decode(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, received));
        } catch {
          finish(new TransportError('transport: response body is not UTF-8', 'BODY_NOT_UTF8', true));
          return;
        }
        finish(null, Object.freeze({ status: response.statusCode ?? 0, headers: flattenHeaders(response.headers), body }));
      });
      // A connection that closes before the body's end is a reset, whatever Node calls it.
      response.once('close', () => {
        if (!ended) finish(classifyTransportFailure(Object.assign(new Error('response aborted'), { code: 'ECONNRESET' }), phase));
      });
    });

    clientRequest.end(request.body ?? undefined);
  });
}
