import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY } from '../server/mcp-meta-keys.js';

// The requests answered before the MCP SDK is loaded, recognised narrowly: only the plain shapes real clients send
// (and for which the SDK's answer depends on nothing but the revision asked for). Anything else — an extra field, a
// cursor, an unusual capability — is left to the SDK, which then answers it exactly as it always does.

type Json = Readonly<Record<string, unknown>>;

function isPlainObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
}

function hasOnlyKeys(value: Json, allowed: readonly string[], required: readonly string[] = []): boolean {
  const keys = Object.keys(value);
  return keys.every((k) => allowed.includes(k)) && required.every((k) => keys.includes(k));
}

/** `{ name, version, title? }`, all strings (MCP `Implementation`, in its minimal form). */
function isPlainImplementation(value: unknown): boolean {
  if (!isPlainObject(value) || !hasOnlyKeys(value, ['name', 'version', 'title'], ['name', 'version'])) return false;
  return Object.values(value).every((v) => typeof v === 'string');
}

/** Client capabilities made only of `roots` (`{}` or `{ listChanged: boolean }`), `sampling: {}` and `elicitation: {}`. */
function isPlainClientCapabilities(value: unknown): boolean {
  if (!isPlainObject(value) || !hasOnlyKeys(value, ['roots', 'sampling', 'elicitation'])) return false;
  const empty = (v: unknown) => isPlainObject(v) && Object.keys(v).length === 0;
  if (value['sampling'] !== undefined && !empty(value['sampling'])) return false;
  if (value['elicitation'] !== undefined && !empty(value['elicitation'])) return false;
  const roots = value['roots'];
  if (roots === undefined) return true;
  return (
    isPlainObject(roots) &&
    hasOnlyKeys(roots, ['listChanged']) &&
    (roots['listChanged'] === undefined || typeof roots['listChanged'] === 'boolean')
  );
}

/** The request's `params`, when the message is a request of `method` with exactly the members a request has. */
function paramsOf(message: JSONRPCMessage, method: string): { readonly present: boolean; readonly params: unknown } | null {
  if (!('method' in message) || message.method !== method || !('id' in message)) return null;
  const m = message as unknown as Json;
  if (!hasOnlyKeys(m, ['jsonrpc', 'id', 'method', 'params'])) return null;
  return { present: 'params' in m, params: m['params'] };
}

/** The 2026-07-28 revision a plain per-request envelope `{ _meta: { protocolVersion, clientInfo, clientCapabilities } }` claims. */
function envelopeRevision(params: unknown): string | null {
  if (!isPlainObject(params) || !hasOnlyKeys(params, ['_meta'], ['_meta'])) return null;
  const meta = params['_meta'];
  const keys = [PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY];
  if (!isPlainObject(meta) || !hasOnlyKeys(meta, keys, keys)) return null;
  const revision = meta[PROTOCOL_VERSION_META_KEY];
  if (typeof revision !== 'string' || !isPlainImplementation(meta[CLIENT_INFO_META_KEY])) return null;
  return isPlainClientCapabilities(meta[CLIENT_CAPABILITIES_META_KEY]) ? revision : null;
}

/** The revision a plain 2025-era `initialize` asks for, or null. */
export function plainInitializeRevision(message: JSONRPCMessage): string | null {
  const request = paramsOf(message, 'initialize');
  if (request === null || !isPlainObject(request.params)) return null;
  const params = request.params;
  if (!hasOnlyKeys(params, ['protocolVersion', 'capabilities', 'clientInfo'], ['protocolVersion', 'capabilities', 'clientInfo']))
    return null;
  if (typeof params['protocolVersion'] !== 'string' || !isPlainImplementation(params['clientInfo'])) return null;
  return isPlainClientCapabilities(params['capabilities']) ? params['protocolVersion'] : null;
}

/** The revision a plain `server/discover` claims in its envelope, or null. */
export function plainDiscoverRevision(message: JSONRPCMessage): string | null {
  const request = paramsOf(message, 'server/discover');
  return request === null ? null : envelopeRevision(request.params);
}

/**
 * Whether the message is a plain first-page tools/list of `era`: no params (or `{}`) in the 2025 era, exactly the
 * envelope of `revision` in the 2026-07-28 era.
 */
export function isPlainToolsList(message: JSONRPCMessage, era: 'legacy' | 'modern', revision: string): boolean {
  const request = paramsOf(message, 'tools/list');
  if (request === null) return false;
  if (era === 'legacy') return !request.present || (isPlainObject(request.params) && Object.keys(request.params).length === 0);
  return envelopeRevision(request.params) === revision;
}
