import { assertObject } from '@pfsense-mcp/foundation';
import { PfrestEnvelopeSchema, isSuccessEnvelope } from './pfrest-envelope.js';
import { PfrestResponseError } from './pfrest-response-error.js';
import type { Transport, TransportResponse } from '@pfsense-mcp/transports';

export interface RestApiClientOptions {
  /** Page size used by readAllPages (1–1000). Default 500. */
  readonly pageSize?: number;
  /** Most pages readAllPages will fetch before failing closed (1–10000). Default 200. */
  readonly maxPages?: number;
}

export const DEFAULT_PAGE_SIZE = 500;
export const DEFAULT_MAX_PAGES = 200;

// Only plain pfrest v2 paths: lower-case segments of [a-z0-9_]. No query string, no dot segments, no encoding
// tricks, no empty segment — the path is ours (catalogue data), never caller text.
const PATH = /^\/api\/v2(?:\/[a-z0-9_]+)+$/;
const MAX_PATH_LENGTH = 256;
const QUERY_KEY = /^[a-z_][a-z0-9_]{0,63}$/;
const MAX_QUERY_KEYS = 16;
const MAX_QUERY_VALUE_LENGTH = 256;

function assertPath(path: unknown, fn: string): string {
  if (typeof path !== 'string' || path.length > MAX_PATH_LENGTH || !PATH.test(path)) {
    throw new TypeError(`${fn}: "path" must be a pfrest v2 path like /api/v2/firewall/aliases (no query, no dots)`);
  }
  return path;
}

function copyQuery(query: unknown, fn: string): Readonly<Record<string, string | number>> | undefined {
  if (query === undefined) return undefined;
  if (query === null || typeof query !== 'object' || Array.isArray(query)) {
    throw new TypeError(`${fn}: "query" must be a plain object of string or integer values`);
  }
  const entries = Object.entries(query);
  if (entries.length > MAX_QUERY_KEYS) throw new RangeError(`${fn}: "query" has too many keys`);
  const out: Record<string, string | number> = Object.create(null) as Record<string, string | number>;
  for (const [key, value] of entries) {
    if (!QUERY_KEY.test(key)) throw new TypeError(`${fn}: "query" keys must be lower-case identifiers`);
    if (typeof value === 'number') {
      if (!Number.isSafeInteger(value)) throw new TypeError(`${fn}: "query" numbers must be safe integers`);
    } else if (typeof value !== 'string' || value.length > MAX_QUERY_VALUE_LENGTH) {
      throw new TypeError(`${fn}: "query" values must be strings (≤ ${MAX_QUERY_VALUE_LENGTH}) or integers`);
    }
    out[key] = value;
  }
  return Object.freeze(out);
}

function boundedInt(value: unknown, name: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`RestApiClient: "${name}" must be an integer from ${min} to ${max}`);
  }
  return value;
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The read client for pfrest v2. GET is the only method it can send: the method string is a literal at the
 * single call site below, no member takes a method, and the transport is held in a true private field so no
 * caller can reach it through the client (docs/DESIGN.md §2: "the REST read client has no non-GET code path").
 */
export class RestApiClient {
  readonly #transport: Transport;
  readonly #pageSize: number;
  readonly #maxPages: number;

  constructor(transport: Transport, options: RestApiClientOptions = {}) {
    if (transport === null || typeof transport !== 'object' || typeof transport.request !== 'function') {
      throw new TypeError('RestApiClient: "transport" must implement Transport');
    }
    assertObject(options, 'RestApiClient: "options"');
    this.#transport = transport;
    this.#pageSize = boundedInt(options.pageSize, 'pageSize', 1, 1000, DEFAULT_PAGE_SIZE);
    this.#maxPages = boundedInt(options.maxPages, 'maxPages', 1, 10_000, DEFAULT_MAX_PAGES);
    Object.freeze(this);
  }

  /**
   * One GET of `path` (with an optional query); resolves to the envelope's `data`, refuses anything else.
   * `signal` aborts the request (the transport's `CANCELLED`).
   */
  async read(path: string, query?: Readonly<Record<string, string | number>>, signal?: AbortSignal): Promise<{ readonly data: unknown }> {
    const checkedPath = assertPath(path, 'read');
    const checkedQuery = copyQuery(query, 'read');
    if (signal !== undefined && !(signal instanceof AbortSignal)) throw new TypeError('read: "signal" must be an AbortSignal');
    const options = { ...(checkedQuery === undefined ? {} : { query: checkedQuery }), ...(signal === undefined ? {} : { signal }) };
    const response = await this.#transport.request('GET', checkedPath, Object.keys(options).length === 0 ? undefined : options);
    return Object.freeze({ data: unwrap(response) });
  }

  /**
   * Every item of a plural endpoint, paged with limit/offset until a short page. Fails closed (no partial
   * result) when a page is longer than asked, is not an array, or the page bound is reached.
   */
  async readAllPages(path: string): Promise<readonly unknown[]> {
    const checkedPath = assertPath(path, 'readAllPages');
    const items: unknown[] = [];
    for (let page = 0; page < this.#maxPages; page += 1) {
      const offset = page * this.#pageSize;
      const response = await this.#transport.request('GET', checkedPath, {
        query: Object.freeze({ limit: this.#pageSize, offset }),
      });
      const data = unwrap(response);
      if (!Array.isArray(data)) throw new PfrestResponseError('UNEXPECTED_SHAPE', response.status, null, '$');
      if (data.length > this.#pageSize) {
        throw new PfrestResponseError('UNEXPECTED_SHAPE', response.status, null, '$.length');
      }
      for (const item of data) items.push(item);
      if (data.length < this.#pageSize) return Object.freeze(items);
    }
    throw new PfrestResponseError('PAGE_LIMIT_EXCEEDED', 200);
  }
}

function unwrap(response: TransportResponse): unknown {
  const status = response.status;
  if (status >= 300 && status < 400) throw new PfrestResponseError('REDIRECT_REFUSED', status);
  const json = typeof response.body === 'string' ? parseJson(response.body) : undefined;
  const parsed = PfrestEnvelopeSchema.safeParse(json);
  if (status < 200 || status >= 300) {
    // An error status: report pfrest's response_id when the body is an envelope (nginx 404 pages are not).
    throw new PfrestResponseError('UPSTREAM_ERROR', status, parsed.success ? parsed.data.response_id : null);
  }
  if (!parsed.success) throw new PfrestResponseError('MALFORMED_RESPONSE', status);
  if (!isSuccessEnvelope(parsed.data)) {
    throw new PfrestResponseError('UPSTREAM_ERROR', status, parsed.data.response_id);
  }
  return parsed.data.data;
}
