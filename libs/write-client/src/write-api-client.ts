import { assertObject, assertRecord } from '@pfsense-mcp/foundation';
import { CanonicalError, canonicalize } from '@pfsense-mcp/canonical';
import { isHttpMethod } from '@pfsense-mcp/policy';
import type { HttpMethod } from '@pfsense-mcp/policy';
import type { Transport, TransportResponse } from '@pfsense-mcp/transports';
import { MAX_WRITE_LIST_LENGTH, isWriteRequestFor, maxBodyBytesFor } from './is-write-request-for.js';
import { WriteEndpoints } from './write-endpoints.js';
import type { WriteEndpoint, WriteEndpointTable } from './write-endpoints.js';
import { WriteRefusalError } from './write-refusal-error.js';

/** Largest description request body the client will send: 16 KiB of canonical JSON (UTF-8 bytes). */
export const MAX_WRITE_BODY_BYTES = maxBodyBytesFor('FIREWALL_ALIAS_PATCH');

export interface WriteApiClientOptions {
  /**
   * The endpoint table; default the product's `WriteEndpoints`. Tests inject one to exercise refusals: it may
   * only be a subset of `WriteEndpoints` (same symbols, methods and paths) with `verified` lowered to false —
   * never a new symbol, method or path, never a raised `verified`.
   */
  readonly endpoints?: WriteEndpointTable;
}

const SYMBOL = /^[A-Z][A-Z0-9_]{0,63}$/;
const PATH = /^\/api\/v2(?:\/[a-z0-9_]+)+$/;
const ENTRY_KEYS = ['method', 'path', 'verified'];

/**
 * Validates and copies an injected table. Every entry must be an entry of `WriteEndpoints` with the same
 * method and path; `verified` may only be lowered. So no constructor call, in tests or production, can add
 * a write surface (docs/DESIGN.md §5: adding one is a reviewed change of write-endpoints.ts).
 */
function copyTable(table: unknown): ReadonlyMap<string, Readonly<WriteEndpoint>> {
  if (table === null || typeof table !== 'object' || Array.isArray(table)) {
    throw new TypeError('WriteApiClient: "options.endpoints" must be an object of symbol → {method, path, verified}');
  }
  const product = WriteEndpoints as unknown as Readonly<Record<string, Readonly<WriteEndpoint>>>;
  const out = new Map<string, Readonly<WriteEndpoint>>();
  for (const [symbol, raw] of Object.entries(table)) {
    const at = `WriteApiClient: "options.endpoints.${SYMBOL.test(symbol) ? symbol : '<invalid>'}"`;
    if (!SYMBOL.test(symbol)) throw new TypeError(`${at}: symbols must match ${SYMBOL.source}`);
    if (!Object.prototype.hasOwnProperty.call(product, symbol))
      throw new TypeError(`${at}: only symbols of WriteEndpoints may be injected`);
    const own = product[symbol] as Readonly<WriteEndpoint>;
    assertRecord(raw, at);
    const keys = Object.keys(raw);
    if (keys.length !== ENTRY_KEYS.length || !ENTRY_KEYS.every((k) => keys.includes(k))) {
      throw new TypeError(`${at} must have exactly the keys method, path, verified`);
    }
    const { method, path, verified } = raw as Record<string, unknown>;
    // GET never goes through the write client: reads have their own GET-only client (docs/DESIGN.md §2).
    if (!isHttpMethod(method) || method === 'GET') throw new TypeError(`${at}.method must be POST, PUT, PATCH or DELETE`);
    if (method !== own.method) throw new TypeError(`${at}.method must be WriteEndpoints' own method ${own.method}`);
    if (typeof path !== 'string' || path.length > 256 || !PATH.test(path)) {
      throw new TypeError(`${at}.path must be a pfrest v2 path like /api/v2/firewall/alias`);
    }
    if (path !== own.path) throw new TypeError(`${at}.path must be WriteEndpoints' own path`);
    if (typeof verified !== 'boolean') throw new TypeError(`${at}.verified must be a boolean`);
    if (verified && !own.verified) throw new TypeError(`${at}.verified may only be lowered to false`);
    out.set(symbol, Object.freeze({ method, path, verified }));
  }
  return out;
}

/**
 * The only non-GET path in the product (docs/DESIGN.md §2, §4). Every refusal — unknown symbol, method
 * mismatch, unverified entry, a request outside the endpoint's closed shape (`isWriteRequestFor`) or not
 * canonical JSON, a body over 16 KiB — happens before the
 * transport is called and throws WriteRefusalError (requestWritten: false). One `send` is at most one
 * transport request; it never retries. Only composition roots construct it; only the executor holds it.
 */
export class WriteApiClient {
  readonly #transport: Transport;
  readonly #endpoints: ReadonlyMap<string, Readonly<WriteEndpoint>>;

  constructor(transport: Transport, options: WriteApiClientOptions = {}) {
    if (transport === null || typeof transport !== 'object' || typeof transport.request !== 'function') {
      throw new TypeError('WriteApiClient: "transport" must implement Transport');
    }
    assertObject(options, 'WriteApiClient: "options"');
    this.#transport = transport;
    this.#endpoints = copyTable(options.endpoints ?? WriteEndpoints);
    Object.freeze(this);
  }

  /**
   * Sends `typedRequest` (a closed request model: a plain object) as canonical JSON to the endpoint named by
   * `endpointSymbol`, with `method`, which must equal the table's method. Resolves to the raw response for
   * the caller to classify; transport errors propagate unchanged.
   */
  async send(endpointSymbol: string, method: HttpMethod, typedRequest: object): Promise<TransportResponse> {
    const symbol = typeof endpointSymbol === 'string' && SYMBOL.test(endpointSymbol) ? endpointSymbol : null;
    const endpoint = symbol === null ? undefined : this.#endpoints.get(symbol);
    if (symbol === null || endpoint === undefined) {
      throw new WriteRefusalError('UNKNOWN_ENDPOINT', symbol, '"endpointSymbol" is not in the write endpoint table');
    }
    if (method !== endpoint.method) {
      throw new WriteRefusalError('METHOD_MISMATCH', symbol, `"method" must be the endpoint's own method ${endpoint.method}`);
    }
    if (!endpoint.verified) {
      throw new WriteRefusalError('UNVERIFIED_ENDPOINT', symbol, 'the endpoint is not verified on an appliance');
    }
    // Our own closed key set per symbol, whatever the caller (or its adapter) vouched for.
    if (!isWriteRequestFor(symbol, typedRequest)) {
      throw new WriteRefusalError('INVALID_REQUEST', symbol, `"typedRequest" must be exactly the closed request of ${symbol}`);
    }
    const maxBytes = maxBodyBytesFor(symbol);
    let body: string;
    try {
      body = canonicalize(typedRequest, { maxBytes, maxArrayLength: MAX_WRITE_LIST_LENGTH });
    } catch (error) {
      if (error instanceof CanonicalError && error.code === 'MAX_BYTES') {
        throw new WriteRefusalError('BODY_TOO_LARGE', symbol, `the body exceeds ${maxBytes} bytes`);
      }
      if (error instanceof CanonicalError) {
        throw new WriteRefusalError('INVALID_REQUEST', symbol, `"typedRequest" is not canonical JSON at ${error.path}`);
      }
      throw error;
    }
    // Belt and braces: the limit above is the encoder's running count; this is the final size.
    if (Buffer.byteLength(body, 'utf8') > maxBytes) {
      throw new WriteRefusalError('BODY_TOO_LARGE', symbol, `the body exceeds ${maxBytes} bytes`);
    }
    return this.#transport.request(endpoint.method, endpoint.path, { body });
  }
}
