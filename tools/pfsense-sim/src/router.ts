// Dispatch of /api/v2 requests: route lookup (unknown path → nginx 404), method check, authentication,
// privilege check, then the endpoint. Returns the status and envelope to send; writes are committed by
// the time it returns.
import type { IncomingHttpHeaders } from 'node:http';
import { ApiError } from './api-error.js';
import { ALIAS_PATH, handleAlias } from './alias-endpoint.js';
import { authorize, type Authenticator } from './auth.js';
import type { DataStore } from './data-store.js';
import { errorEnvelope, successEnvelope, type Envelope } from './envelope.js';
import { READ_PATHS } from './model-catalog.js';
import { modelFieldNames, type JsonObject } from './model-shaper.js';
import { applyQuery } from './query-filters.js';
import { isJsonContentType, requestParams } from './request-params.js';

export const FIREWALL_APPLY_PATH = '/api/v2/firewall/apply';
export const JWT_PATH = '/api/v2/auth/jwt';
const STATES_PATH = '/api/v2/firewall/states';
const STATES_DEFAULT_LIMIT = 100;

/** Methods the simulator serves per path (the 94 read paths answer GET only). */
export function routeMethods(path: string): readonly string[] | undefined {
  if (path === ALIAS_PATH) return ['GET', 'POST', 'PATCH', 'DELETE'];
  if (path === FIREWALL_APPLY_PATH) return ['GET', 'POST'];
  if (path === JWT_PATH) return ['POST'];
  if (READ_PATHS[path]) return ['GET'];
  return undefined;
}

export interface ApiRequest {
  readonly method: string;
  readonly path: string;
  readonly search: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  /** The client's address, recorded in config-history revisions (pfSense's REMOTE_ADDR). */
  readonly remoteAddress?: string;
}

export interface ApiDeps {
  readonly store: DataStore;
  readonly auth: Authenticator;
  readonly now: () => Date;
}

export interface ApiResult {
  readonly status: number;
  readonly envelope: Envelope;
}

function knownFields(path: string, rows: readonly unknown[]): Set<string> {
  const model = READ_PATHS[path]?.model;
  const names = new Set<string>(['id', 'parent_id', ...(model ? modelFieldNames(model) : [])]);
  for (const r of rows) if (r && typeof r === 'object') for (const k of Object.keys(r)) names.add(k);
  return names;
}

function readPath(path: string, params: JsonObject, store: DataStore, fromQueryString: boolean): unknown {
  const served = store.served(path);
  if (!Array.isArray(served)) return served ?? (READ_PATHS[path]?.many ? [] : {});
  return applyQuery(served as JsonObject[], params, {
    knownFields: knownFields(path, served),
    defaultLimit: path === STATES_PATH ? STATES_DEFAULT_LIMIT : 0,
    fromQueryString,
  });
}

function firewallApplyStatus(store: DataStore): JsonObject {
  const pending = store.pendingSubsystems();
  return { applied: pending.length === 0, pending_subsystems: [...pending] };
}

/** IPv4-mapped IPv6 peers as pfSense shows them (plain dotted quad). */
function clientAddress(remote: string | undefined): string {
  if (remote === undefined || remote.length === 0) return 'unknown IP';
  return remote.startsWith('::ffff:') ? remote.slice(7) : remote;
}

function dispatch(req: ApiRequest, deps: ApiDeps): unknown {
  const methods = routeMethods(req.path);
  if (!methods) throw new RangeError('dispatch: unrouted path');
  if (!methods.includes(req.method)) {
    throw new ApiError(405, 'ENDPOINT_METHOD_NOT_ALLOWED', 'Resource at this endpoint does not support this method.');
  }
  const principal = deps.auth.authenticate(req.headers, req.path === JWT_PATH);
  authorize(principal, req.path, req.method);
  const params = requestParams(req.method, req.headers['content-type'], req.search, req.body);
  if (req.path === JWT_PATH) return { token: deps.auth.issueJwt(principal) };
  if (req.path === ALIAS_PATH) {
    const author = { username: principal.username, address: clientAddress(req.remoteAddress) };
    return handleAlias({ method: req.method, params, store: deps.store, now: deps.now(), author });
  }
  if (req.path === FIREWALL_APPLY_PATH) {
    if (req.method === 'POST') deps.store.applyFirewall();
    // A --data payload for the apply path is served verbatim like any other.
    if (req.method === 'GET' && deps.store.isVerbatim(req.path)) return deps.store.served(req.path);
    return firewallApplyStatus(deps.store);
  }
  return readPath(req.path, params, deps.store, !isJsonContentType(req.headers['content-type']));
}

/** Undefined means "no such endpoint": the server answers with nginx's 404 page. */
export function routeApiRequest(req: ApiRequest, deps: ApiDeps): ApiResult | undefined {
  if (!routeMethods(req.path)) return undefined;
  try {
    return { status: 200, envelope: successEnvelope(dispatch(req, deps)) };
  } catch (error) {
    if (error instanceof ApiError) return { status: error.code, envelope: errorEnvelope(error.code, error.responseId, error.message) };
    return { status: 500, envelope: errorEnvelope(500, 'SERVER_ERROR', 'The simulator failed to handle the request.') };
  }
}
