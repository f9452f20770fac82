// /api/v2/firewall/alias (GET/POST/PATCH/DELETE) and the alias rules of pfrest's FirewallAlias model:
// name unique, at most 31 characters, not editable; type host|network|port; descr; address[]; detail[]
// padded with "Entry added <date>". Writes mark the `aliases` subsystem pending unless `apply` is true.
import { ApiError } from './api-error.js';
import { ALIAS_CHANGE_NOTES, type RevisionAuthor } from './config-history.js';
import { ALIASES_PATH, type DataStore } from './data-store.js';
import type { JsonObject } from './model-shaper.js';

export const ALIAS_PATH = '/api/v2/firewall/alias';
const ALIAS_TYPES = ['host', 'network', 'port'] as const;
const NAME_MAX = 31;
const RESERVED_NAMES = new Set(['any', 'self', 'lan', 'wan', 'pptp', 'pppoe', 'l2tp', 'openvpn', 'ipsec']);

function invalid(responseId: string, message: string, code = 400): ApiError {
  return new ApiError(code, responseId, message);
}

/** pfSense's own date('r') style, e.g. "Sat, 30 Nov 2024 21:00:00 +0000". */
export function entryAddedDetail(now: Date): string {
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const p = (n: number): string => String(n).padStart(2, '0');
  return (
    `Entry added ${days[now.getUTCDay()]}, ${p(now.getUTCDate())} ${months[now.getUTCMonth()]} ${now.getUTCFullYear()} ` +
    `${p(now.getUTCHours())}:${p(now.getUTCMinutes())}:${p(now.getUTCSeconds())} +0000`
  );
}

function parseId(raw: unknown, count: number): number {
  if (raw === undefined || raw === null || raw === '') throw invalid('MODEL_REQUIRES_ID', 'Field `id` is required.');
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n)) throw invalid('FIELD_INVALID_TYPE', 'Field `id` must be of type `integer`.');
  if (n < 0 || n >= count) throw invalid('MODEL_OBJECT_NOT_FOUND', `Object with ID \`${n}\` does not exist.`, 404);
  return n;
}

function stringList(field: string, value: unknown): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    throw invalid('FIELD_INVALID_TYPE', `Field \`${field}\` must be of type \`array\` of \`string\`.`);
  }
  return value as string[];
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
const IPV6 = /^[0-9a-fA-F:]+:[0-9a-fA-F:.]*$/;
const FQDN = /^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const ALIAS_NAME = /^[A-Za-z0-9_]+$/;

function validIp(addr: string): boolean {
  return IPV4.test(addr) || IPV6.test(addr);
}

/** An address range "a-b" of two IPv4 or two IPv6 addresses, which pfSense accepts in host and network aliases. */
function validRange(entry: string): boolean {
  const parts = entry.split('-');
  if (parts.length !== 2) return false;
  const [from = '', to = ''] = parts;
  return (IPV4.test(from) && IPV4.test(to)) || (IPV6.test(from) && IPV6.test(to));
}

/**
 * A close approximation of pfSense's alias entry check. Host and network entries may also name another
 * alias (nested aliases) or be an IP range; other stored types (url, urltable, … loaded with --data) are
 * not modelled, so any non-empty entry passes for them.
 */
function validAddress(type: string, entry: string): boolean {
  if (entry.length === 0) return false;
  if (type === 'port') {
    const m = /^(\d{1,5})(?::(\d{1,5}))?$/.exec(entry);
    if (m) return [m[1], m[2]].every((p) => p === undefined || (Number(p) >= 1 && Number(p) <= 65535));
    return ALIAS_NAME.test(entry);
  }
  if (type !== 'host' && type !== 'network') return true;
  if (validRange(entry)) return true;
  const [addr, mask, extra] = entry.split('/');
  if (extra !== undefined || addr === undefined) return false;
  if (mask !== undefined) {
    if (type !== 'network' || !/^\d{1,3}$/.test(mask)) return false;
    return (IPV4.test(addr) && Number(mask) <= 32) || (IPV6.test(addr) && Number(mask) <= 128);
  }
  // FQDN covers alias names too (letters, digits, underscores are checked by ALIAS_NAME).
  return validIp(addr) || FQDN.test(addr) || ALIAS_NAME.test(addr);
}

function checkName(name: unknown): string {
  if (typeof name !== 'string') throw invalid('FIELD_INVALID_TYPE', 'Field `name` must be of type `string`.');
  if (name.length > NAME_MAX)
    throw invalid('STRING_FIELD_MAXIMUM_LENGTH_EXCEEDED', `Field \`name\` exceeds the maximum length of ${NAME_MAX}.`);
  if (!ALIAS_NAME.test(name) || /^\d+$/.test(name) || RESERVED_NAMES.has(name.toLowerCase()) || name.startsWith('pkg_')) {
    throw invalid(
      'FILTER_NAME_VALIDATOR_INVALID_NAME',
      'Field `name` must contain only letters, digits and underscores and not be a reserved name.',
    );
  }
  return name;
}

/** Validates the fields present in `body` onto `base` (a stored alias or a new one) and returns the result. */
function applyFields(body: JsonObject, base: JsonObject, creating: boolean, now: Date): JsonObject {
  const next: JsonObject = { ...base };
  if (creating) {
    if (body.name === undefined) throw invalid('FIELD_IS_REQUIRED', 'Field `name` is required.');
    if (body.type === undefined) throw invalid('FIELD_IS_REQUIRED', 'Field `type` is required.');
  }
  if (body.name !== undefined) {
    const name = checkName(body.name);
    if (!creating && name !== base.name) {
      throw invalid('FIELD_VALUE_CHANGED_WHEN_NOT_EDITABLE', 'Field `name` is not editable.');
    }
    next.name = name;
  }
  if (body.type !== undefined) {
    if (typeof body.type !== 'string') throw invalid('FIELD_INVALID_TYPE', 'Field `type` must be of type `string`.');
    if (!(ALIAS_TYPES as readonly string[]).includes(body.type))
      throw invalid('FIELD_INVALID_CHOICE', 'Field `type` must be one of [host, network, port].');
    next.type = body.type;
  }
  if (body.descr !== undefined) {
    if (typeof body.descr !== 'string') throw invalid('FIELD_INVALID_TYPE', 'Field `descr` must be of type `string`.');
    if (body.descr.length > 1024)
      throw invalid('STRING_FIELD_MAXIMUM_LENGTH_EXCEEDED', 'Field `descr` exceeds the maximum length of 1024.');
    next.descr = body.descr;
  }
  next.descr ??= '';
  // Only what the request sends is checked: a PATCH of `descr` alone keeps whatever address/detail the
  // alias already holds (pfSense accepts entries this checker does not model, e.g. url aliases). A type
  // change re-checks the stored entries against the new type.
  const typeChanged = !creating && body.type !== undefined && body.type !== base.type;
  if (body.address === undefined && body.detail === undefined && !typeChanged) {
    return { name: next.name, type: next.type, descr: next.descr, address: next.address ?? [], detail: next.detail ?? [] };
  }
  const address = body.address !== undefined ? stringList('address', body.address) : stringList('address', next.address ?? []);
  let detail = body.detail !== undefined ? stringList('detail', body.detail) : stringList('detail', next.detail ?? []);
  if (body.address !== undefined || typeChanged) {
    for (const entry of address) {
      if (!validAddress(String(next.type), entry))
        throw invalid('FIREWALL_ALIAS_ADDRESS_INVALID', `Field \`address\` holds a value that is not a valid ${String(next.type)} entry.`);
    }
  }
  // A shorter address list drops the details of removed entries when the request gave none.
  if (body.address !== undefined && body.detail === undefined) detail = detail.slice(0, address.length);
  if (detail.length > address.length)
    throw invalid('FIREWALL_ALIAS_DETAIL_EXCEEDS_ADDRESSES', 'Field `detail` must not have more entries than `address`.');
  while (detail.length < address.length) detail = [...detail, entryAddedDetail(now)];
  return { name: next.name, type: next.type, descr: next.descr, address: [...address], detail };
}

function wantsApply(value: unknown): boolean {
  return value === true || value === 'true' || value === '1';
}

export interface AliasRequest {
  readonly method: string;
  readonly params: JsonObject;
  readonly store: DataStore;
  readonly now: Date;
  /** Recorded with the config-history revision every accepted write leaves. */
  readonly author: RevisionAuthor;
}

/** Handles one alias request and returns the `data` of the success envelope (writes are committed first). */
export function handleAlias(req: AliasRequest): unknown {
  const { store, params } = req;
  const records = store.records(ALIASES_PATH);
  const serve = (index: number): unknown => (store.served(ALIASES_PATH) as unknown[])[index];
  // pfrest writes the config (one revision) before it applies; apply itself writes none.
  const commit = (next: readonly JsonObject[]): void => {
    // Every write marks `aliases` dirty; an `apply: true` request then reloads the filter, which clears it
    // (unless the simulator's apply mode loses the reload).
    store.commit(ALIASES_PATH, next, 'aliases');
    store.recordConfigWrite(req.author, ALIAS_CHANGE_NOTES[req.method] ?? 'Unknown', req.now);
    if (wantsApply(params.apply)) store.applyFirewall();
  };
  switch (req.method) {
    case 'GET': {
      const id = parseId(params.id, records.length);
      return serve(id);
    }
    case 'POST': {
      const created = applyFields(params, {}, true, req.now);
      if (records.some((r) => r.name === created.name)) throw invalid('FIELD_MUST_BE_UNIQUE', 'Field `name` must be unique.');
      records.push(created);
      commit(records);
      return serve(records.length - 1);
    }
    case 'PATCH': {
      const id = parseId(params.id, records.length);
      const base = records[id] as JsonObject;
      const updated = applyFields(params, base, false, req.now);
      records[id] = { ...base, ...updated };
      commit(records);
      return serve(id);
    }
    case 'DELETE': {
      const id = parseId(params.id, records.length);
      const gone = serve(id);
      records.splice(id, 1);
      commit(records);
      return gone;
    }
    default:
      throw invalid('ENDPOINT_METHOD_NOT_ALLOWED', 'Resource at this endpoint does not support this method.', 405);
  }
}
