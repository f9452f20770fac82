import { AdapterInputError } from './adapter-error.js';
import type { AliasEntriesTarget } from './alias-entries-target.js';
import { assertAliasName } from './assert-alias-name.js';
import type { ParsedWriteResponse, WriteResponseView } from './capability-adapter.js';
import { aliasOfPatchResponse } from './parse-alias-patch-response.js';

/**
 * The closed PATCH body of the entries capability: exactly `{id, name, address[], detail[], apply: true}`
 * (docs/DESIGN.md §5). The complete new lists, aligned: pfrest replaces both fields whole, refuses more details
 * than addresses (TOO_MANY_ALIAS_DETAILS) and pads fewer with a date (Models/FirewallAlias.inc at the pinned
 * commit). `name` is pfrest's identity check (not editable), `apply: true` reloads the filter so pf's table
 * follows — which is why the executor first proves nothing else is pending.
 */
export interface AliasEntriesRequest {
  readonly id: number;
  readonly name: string;
  readonly address: readonly string[];
  readonly detail: readonly string[];
  readonly apply: true;
}

// Requests this module built (a look-alike literal is not a member), as for the description requests.
const BUILT: WeakSet<object> = new WeakSet();

/** Builds and registers the request for the alias `name` at `locator` with these complete, aligned lists. */
export function createAliasEntriesRequest(
  locator: unknown,
  name: unknown,
  address: readonly string[],
  detail: readonly string[],
): AliasEntriesRequest {
  if (typeof locator !== 'number' || !Number.isSafeInteger(locator) || locator < 0) {
    throw new AdapterInputError('BAD_LOCATOR', 'target.locator', 'must be a non-negative safe integer');
  }
  if (address.length !== detail.length) throw new AdapterInputError('MALFORMED', 'detail', 'must align with address');
  const request: AliasEntriesRequest = Object.freeze({
    id: locator,
    name: assertAliasName(name, 'target.identity.alias_name'),
    address: Object.freeze([...address]),
    detail: Object.freeze([...detail]),
    apply: true,
  });
  BUILT.add(request);
  return request;
}

/** True only for a frozen request model built here. */
export function isAliasEntriesRequest(value: unknown): value is AliasEntriesRequest {
  return typeof value === 'object' && value !== null && BUILT.has(value) && Object.isFrozen(value);
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

function reject(reason: string): ParsedWriteResponse<AliasEntriesTarget> {
  return Object.freeze({ accepted: false, reason });
}

/**
 * Accepts only an alias PATCH answer (aliasOfPatchResponse: pfrest's success envelope, the request's alias) holding
 * exactly the sent lists. The response says nothing of the rules, so the target it returns has no usage; the
 * executor's re-read, the apply status and the pf table are the proof. Never throws on upstream data.
 */
export function parseAliasEntriesResponse(
  response: WriteResponseView,
  request: AliasEntriesRequest,
): ParsedWriteResponse<AliasEntriesTarget> {
  if (!isAliasEntriesRequest(request)) return reject('NOT_ADAPTER_REQUEST');
  const answer = aliasOfPatchResponse(response, request);
  if ('reason' in answer) return reject(answer.reason);
  const target = answer.target;
  if (!sameList(target.address, request.address) || !sameList(target.detail, request.detail)) return reject('DATA_ENTRIES_DIFFER');
  return Object.freeze({ accepted: true, target: Object.freeze({ ...target, usage: Object.freeze([]) }) });
}
