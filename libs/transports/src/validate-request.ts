import { isHttpMethod, type HttpMethod } from '@pfsense-mcp/foundation';
import { InvalidRequestError } from './transport-error.js';
import type { TransportRequestOptions } from './transport.js';

export const MAX_PATH_LENGTH = 2048;
export const MAX_QUERY_PARAMS = 64;
export const MAX_QUERY_VALUE_LENGTH = 4096;
export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;

/** A request as every transport sees it after validation: frozen, no undefined members. */
export interface ValidatedRequest {
  readonly method: HttpMethod;
  readonly path: string;
  readonly query: Readonly<Record<string, string | number>> | null;
  readonly body: string | null;
}

// RFC 3986 path characters (pchar) and '/', with percent escapes checked separately. Anything else
// (space, '?', '#', '\\', controls, non-ASCII) is refused rather than silently encoded, so the path
// the caller reviewed is the path on the wire.
const PATH_CHARS = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;
const BAD_PERCENT = /%(?![0-9A-Fa-f]{2})/;
const QUERY_KEY = /^[A-Za-z0-9_.\-[\]]{1,128}$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function isWellFormed(s: string): boolean {
  return !LONE_SURROGATE.test(s);
}

function refuse(message: string): never {
  throw new InvalidRequestError(`request: ${message}`);
}

/**
 * The one validation shared by every Transport implementation, so a mock refuses exactly what the
 * real transport refuses.
 */
export function validateRequest(method: unknown, path: unknown, options: unknown): ValidatedRequest {
  if (!isHttpMethod(method)) refuse('"method" must be one of GET, POST, PUT, PATCH, DELETE');
  if (typeof path !== 'string') refuse('"path" must be a string');
  if (path.length === 0 || path.length > MAX_PATH_LENGTH) {
    refuse(`"path" must be 1..${MAX_PATH_LENGTH} characters`);
  }
  if (!PATH_CHARS.test(path) || BAD_PERCENT.test(path)) {
    refuse('"path" must be an absolute path of RFC 3986 path characters (no query, fragment or spaces)');
  }
  if (path.startsWith('//')) refuse('"path" must not start with "//"');
  for (const segment of path.split('/')) {
    if (segment === '.' || segment === '..' || /^(%2e|\.){1,2}$/i.test(segment)) {
      refuse('"path" must not contain "." or ".." segments');
    }
  }
  if (options !== undefined && (options === null || typeof options !== 'object' || Array.isArray(options))) {
    refuse('"options" must be an object');
  }
  const opts = (options ?? {}) as TransportRequestOptions & Record<string, unknown>;
  for (const key of Object.keys(opts)) {
    if (key !== 'query' && key !== 'body' && key !== 'signal') refuse(`unknown option "${key.slice(0, 32)}"`);
  }
  if (opts.signal !== undefined && !(opts.signal instanceof AbortSignal)) refuse('"signal" must be an AbortSignal');
  let query: Readonly<Record<string, string | number>> | null = null;
  if (opts.query !== undefined) {
    const q: unknown = opts.query;
    if (q === null || typeof q !== 'object' || Array.isArray(q)) refuse('"query" must be an object');
    const entries = Object.entries(q);
    if (entries.length > MAX_QUERY_PARAMS) refuse(`"query" must have at most ${MAX_QUERY_PARAMS} entries`);
    const copy: Record<string, string | number> = {};
    for (const [key, value] of entries) {
      if (!QUERY_KEY.test(key)) refuse('"query" keys must be 1..128 characters of [A-Za-z0-9_.-[]]');
      if (typeof value === 'number') {
        if (!Number.isSafeInteger(value)) refuse('"query" numbers must be safe integers');
      } else if (typeof value === 'string') {
        if (value.length > MAX_QUERY_VALUE_LENGTH) {
          refuse(`"query" values must be at most ${MAX_QUERY_VALUE_LENGTH} characters`);
        }
        if (!isWellFormed(value)) refuse('"query" values must be well-formed Unicode');
      } else {
        refuse('"query" values must be strings or integers');
      }
      Object.defineProperty(copy, key, { value, enumerable: true });
    }
    query = Object.freeze(copy);
  }
  let body: string | null = null;
  if (opts.body !== undefined) {
    if (typeof opts.body !== 'string') refuse('"body" must be a string (already-serialized JSON)');
    if (method === 'GET') refuse('"body" is not allowed on GET');
    if (!isWellFormed(opts.body)) refuse('"body" must be well-formed Unicode');
    if (Buffer.byteLength(opts.body, 'utf8') > MAX_REQUEST_BODY_BYTES) {
      refuse(`"body" must be at most ${MAX_REQUEST_BODY_BYTES} bytes`);
    }
    body = opts.body;
  }
  return Object.freeze({ method, path, query, body });
}
