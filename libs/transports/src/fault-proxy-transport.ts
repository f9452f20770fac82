import { isHttpMethod, type HttpMethod } from '@pfsense-mcp/foundation';
import { ResponseTooLargeError, TransportConnectionError, TransportTimeoutError } from './transport-error.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from './transport-defaults.js';
import type { Transport, TransportRequestOptions, TransportResponse } from './transport.js';
import { validateRequest } from './validate-request.js';

/** The simulator's fault kinds (tools/pfsense-sim), same names. */
export const FaultKind = Object.freeze({
  LATENCY: 'latency',
  TIMEOUT: 'timeout',
  RESET_BEFORE_APPLY: 'reset-before-apply',
  RESET_AFTER_APPLY: 'reset-after-apply',
  SERVER_ERROR_AFTER_APPLY: '5xx-after-apply',
  DROP_RESPONSE_AFTER_APPLY: 'drop-response-after-apply',
  REDIRECT_3XX: 'redirect-3xx',
  OTHER_2XX: 'other-2xx',
  MALFORMED_JSON: 'malformed-json',
  OVERSIZED_BODY: 'oversized-body',
} as const);
export type FaultKind = (typeof FaultKind)[keyof typeof FaultKind];

const FAULT_KIND_VALUES: ReadonlySet<string> = new Set(Object.values(FaultKind));

export interface FaultDelivery {
  /** Whether the call is forwarded to the wrapped transport (so a write there is applied). */
  readonly reachesUpstream: boolean;
  /** What the caller gets: the wrapped transport's own result, a substituted response, or an error. */
  readonly outcome: 'upstream-result' | 'response' | 'error';
  /** For outcome 'error': the error class name and code the proxy throws. */
  readonly errorName: string | null;
  readonly errorCode: string | null;
  /** For outcome 'error': the error's requestWritten. */
  readonly requestWritten: boolean | null;
}

function delivery(
  reachesUpstream: boolean,
  outcome: FaultDelivery['outcome'],
  error: readonly [name: string, code: string, requestWritten: boolean] | null = null,
): FaultDelivery {
  return Object.freeze({
    reachesUpstream,
    outcome,
    errorName: error?.[0] ?? null,
    errorCode: error?.[1] ?? null,
    requestWritten: error?.[2] ?? null,
  });
}

/**
 * For each kind: does the request reach upstream, and what does the caller see. Matches the
 * simulator's `applied` flags, with one deliberate difference: here reset-before-apply is a refusal
 * before anything is written (requestWritten false, the PROVEN_NONE case), whereas a real RST from
 * the simulator arrives after the client wrote its request and so is honestly "written".
 */
export const FAULT_DELIVERY: Readonly<Record<FaultKind, FaultDelivery>> = Object.freeze({
  latency: delivery(true, 'upstream-result'),
  timeout: delivery(false, 'error', ['TransportTimeoutError', 'RESPONSE_TIMEOUT', true]),
  'reset-before-apply': delivery(false, 'error', ['TransportConnectionError', 'CONNECTION_REFUSED', false]),
  'reset-after-apply': delivery(true, 'error', ['TransportConnectionError', 'CONNECTION_RESET', true]),
  '5xx-after-apply': delivery(true, 'response'),
  'drop-response-after-apply': delivery(true, 'error', ['TransportConnectionError', 'CONNECTION_RESET', true]),
  'redirect-3xx': delivery(false, 'response'),
  'other-2xx': delivery(true, 'response'),
  'malformed-json': delivery(true, 'response'),
  'oversized-body': delivery(true, 'error', ['ResponseTooLargeError', 'RESPONSE_TOO_LARGE', true]),
});

export interface FaultRule {
  readonly method: HttpMethod;
  /** Exact request path (no query), e.g. /api/v2/firewall/alias. */
  readonly path: string;
  readonly kind: FaultKind;
  /** latency (default 1000) and timeout (default 0): milliseconds to wait first. */
  readonly ms?: number;
  /** 5xx-after-apply (default 500), redirect-3xx (default 302), other-2xx (default 202). */
  readonly status?: number;
  /** How many matching calls the fault hits before it clears itself; absent = until cleared. */
  readonly times?: number;
}

const STATUS_RANGE: Partial<Record<FaultKind, readonly [number, number, number]>> = {
  '5xx-after-apply': [500, 599, 500],
  'redirect-3xx': [300, 399, 302],
  'other-2xx': [201, 299, 202],
};

function checkRule(rule: unknown): FaultRule {
  const fail = (what: string): never => {
    throw new TypeError(`FaultProxyTransport: rule ${what}`);
  };
  if (rule === null || typeof rule !== 'object') fail('must be an object');
  const r = rule as Record<string, unknown>;
  for (const key of Object.keys(r)) {
    if (!['method', 'path', 'kind', 'ms', 'status', 'times'].includes(key)) fail(`has unknown field "${key.slice(0, 32)}"`);
  }
  if (!isHttpMethod(r.method)) fail('"method" must be an HTTP method');
  if (typeof r.path !== 'string' || !r.path.startsWith('/') || r.path.length > 2048) fail('"path" must be an absolute path');
  if (typeof r.kind !== 'string' || !FAULT_KIND_VALUES.has(r.kind)) fail('"kind" must be a FaultKind');
  const kind = r.kind as FaultKind;
  if (r.ms !== undefined) {
    if (kind !== 'latency' && kind !== 'timeout') fail('"ms" applies to latency and timeout only');
    if (typeof r.ms !== 'number' || !Number.isSafeInteger(r.ms) || r.ms < 0 || r.ms > 600_000) fail('"ms" must be 0..600000');
  }
  if (r.status !== undefined) {
    const range = STATUS_RANGE[kind];
    if (range === undefined) fail(`"status" does not apply to ${kind}`);
    if (typeof r.status !== 'number' || !Number.isInteger(r.status) || r.status < range![0] || r.status > range![1]) {
      fail(`"status" must be in ${range![0]}..${range![1]} for ${kind}`);
    }
  }
  if (r.times !== undefined && (typeof r.times !== 'number' || !Number.isSafeInteger(r.times) || r.times < 1)) {
    fail('"times" must be a positive integer');
  }
  return Object.freeze({ ...(r as unknown as FaultRule) });
}

const MALFORMED_BODY = '{"code":200,"status":"ok","response_id":"SUCCESS","message":"","data":{"id":0,"name":';

function serverErrorBody(status: number): string {
  return JSON.stringify({
    code: status,
    status: 'internal server error',
    response_id: 'SERVER_ERROR',
    message: 'Simulated upstream failure after the request was applied.',
    data: [],
  });
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Wraps any Transport and injects the simulator's fault kinds per method + path. Counts calls
 * received and sends (calls forwarded to the wrapped transport) — the per-proxy send-attempt
 * counter the lab and the executor tests assert on. Never retries. For the "-after-apply" kinds
 * the fault happens only once the wrapped transport answered: if it failed instead, its own error
 * (with its own requestWritten) is what the caller gets — the fault never claims an apply that
 * did not happen.
 */
export class FaultProxyTransport implements Transport {
  readonly #inner: Transport;
  readonly #faults = new Map<string, { rule: FaultRule; left: number | undefined }>();
  readonly #sends = new Map<string, number>();
  #sendCount = 0;
  #callCount = 0;

  constructor(inner: Transport, faults: readonly FaultRule[] = []) {
    if (inner === null || typeof inner !== 'object' || typeof inner.request !== 'function') {
      throw new TypeError('FaultProxyTransport: "inner" must be a Transport');
    }
    this.#inner = inner;
    this.install(faults);
  }

  /** Replaces all faults and resets the counters. */
  install(faults: readonly FaultRule[]): void {
    if (!Array.isArray(faults)) throw new TypeError('FaultProxyTransport: "faults" must be an array');
    const checked = faults.map(checkRule);
    this.#faults.clear();
    for (const rule of checked) this.setFault(rule);
    this.resetCounters();
  }

  /** Sets the fault for rule.method + rule.path, replacing an earlier one there. */
  setFault(rule: FaultRule): void {
    const checked = checkRule(rule);
    this.#faults.set(`${checked.method} ${checked.path}`, { rule: checked, left: checked.times });
  }

  clearFaults(): void {
    this.#faults.clear();
  }

  /** Active faults (times = what is left). */
  faults(): readonly FaultRule[] {
    return Object.freeze(
      [...this.#faults.values()].map(({ rule, left }) => (left === undefined ? rule : Object.freeze({ ...rule, times: left }))),
    );
  }

  resetCounters(): void {
    this.#sendCount = 0;
    this.#callCount = 0;
    this.#sends.clear();
  }

  /** Calls received by the proxy. */
  get callCount(): number {
    return this.#callCount;
  }

  /** Calls forwarded to the wrapped transport (whatever happened there). */
  get sendCount(): number {
    return this.#sendCount;
  }

  sendCountFor(method: HttpMethod, path: string): number {
    return this.#sends.get(`${method} ${path}`) ?? 0;
  }

  async request(method: HttpMethod, path: string, options?: TransportRequestOptions): Promise<TransportResponse> {
    const validated = validateRequest(method, path, options);
    this.#callCount += 1;
    const rule = this.#take(`${validated.method} ${validated.path}`);
    const forward = (): Promise<TransportResponse> => {
      this.#sendCount += 1;
      const key = `${validated.method} ${validated.path}`;
      this.#sends.set(key, (this.#sends.get(key) ?? 0) + 1);
      return this.#inner.request(method, path, options);
    };
    if (rule === undefined) return forward();
    const status = rule.status ?? STATUS_RANGE[rule.kind]?.[2] ?? 0;
    switch (rule.kind) {
      case 'latency':
        await sleep(rule.ms ?? 1000);
        return forward();
      case 'timeout':
        await sleep(rule.ms ?? 0);
        throw new TransportTimeoutError('RESPONSE_TIMEOUT', true);
      case 'reset-before-apply':
        throw new TransportConnectionError('CONNECTION_REFUSED', false, 'ECONNREFUSED');
      case 'reset-after-apply':
        await forward();
        throw new TransportConnectionError('CONNECTION_RESET', true, 'ECONNRESET');
      case 'drop-response-after-apply':
        await forward();
        throw new TransportConnectionError('CONNECTION_RESET', true, 'ECONNRESET');
      case '5xx-after-apply':
        await forward();
        return frozenResponse(status, { 'content-type': 'application/json' }, serverErrorBody(status));
      case 'redirect-3xx':
        return frozenResponse(status, { location: 'https://127.0.0.1/redirected', 'content-type': 'text/html' }, '');
      case 'other-2xx': {
        const upstream = await forward();
        return frozenResponse(status, upstream.headers, upstream.body);
      }
      case 'malformed-json': {
        const upstream = await forward();
        return frozenResponse(200, upstream.headers, MALFORMED_BODY);
      }
      case 'oversized-body':
        await forward();
        throw new ResponseTooLargeError(DEFAULT_MAX_RESPONSE_BYTES);
    }
  }

  #take(key: string): FaultRule | undefined {
    const entry = this.#faults.get(key);
    if (entry === undefined) return undefined;
    if (entry.left !== undefined) {
      entry.left -= 1;
      if (entry.left <= 0) this.#faults.delete(key);
    }
    return entry.rule;
  }
}

function frozenResponse(status: number, headers: Readonly<Record<string, string>>, body: string): TransportResponse {
  return Object.freeze({ status, headers: Object.freeze({ ...headers }), body });
}
