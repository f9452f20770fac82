import { digest, DigestPurpose } from '@pfsense-mcp/canonical';
import { AdapterInputError } from './adapter-error.js';
import { parseAliasIdentity } from './alias-description-intent.js';
import type { AliasIdentity } from './alias-description-intent.js';
import { assertAliasName, assertNfcArgument } from './assert-alias-name.js';
import { entryKeyOf, formatIpLiteral, isNetworkAligned, parseIpLiteral } from './ip-literal.js';

/** The operation discriminator of the entries intent (docs/DESIGN.md §5). */
export const ALIAS_ENTRIES_OPERATION = 'change_firewall_alias_entries_v1';
/** At most this many entries added and removed together in one change, at least one. */
export const ALIAS_ENTRIES_MAX_CHANGES = 64;
/** Longest entry detail, in characters (code points). */
export const ALIAS_ENTRY_DETAIL_MAX_LENGTH = 200;
/**
 * The detail sent for an added entry without one: pfrest would otherwise pad it with `Entry added <date>`
 * (Models/FirewallAlias.inc, validate_detail, at the pinned commit) and the re-read would not be what was sent.
 */
export const ALIAS_ENTRY_DEFAULT_DETAIL = 'Added by pfsense-mcp';

/** One entry to add: a canonical literal address or CIDR and its detail. */
export interface AliasEntryAddition {
  readonly address: string;
  readonly detail: string;
}

/** The checked input, and the change the intent carries: `{alias_name, add[], remove[]}`, both lists present. */
export interface AliasEntriesInput {
  readonly alias_name: string;
  readonly add: readonly AliasEntryAddition[];
  readonly remove: readonly string[];
}

/** The normalized intent: `{operation, raw_target_hint: {alias_name}, add[], remove[]}`; no optional key. */
export interface AliasEntriesIntent {
  readonly operation: typeof ALIAS_ENTRIES_OPERATION;
  readonly raw_target_hint: AliasIdentity;
  readonly add: readonly AliasEntryAddition[];
  readonly remove: readonly string[];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** An object whose own keys are `required` plus any of `optional`, nothing else. */
function checkKeys(value: unknown, required: readonly string[], optional: readonly string[], argument: string): Record<string, unknown> {
  if (!isPlainObject(value)) throw new AdapterInputError('NOT_OBJECT', argument, 'must be a plain object');
  const missing = required.find((k) => !Object.prototype.hasOwnProperty.call(value, k));
  if (missing !== undefined) throw new AdapterInputError('MISSING_FIELD', `${argument}.${missing}`, 'is required');
  const allowed = [...required, ...optional];
  if (!Reflect.ownKeys(value).every((k) => typeof k === 'string' && allowed.includes(k))) {
    throw new AdapterInputError('UNKNOWN_FIELD', argument, `must have only the fields ${allowed.join(', ')}`);
  }
  return value;
}

function list(value: unknown, argument: string): readonly unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || Object.getPrototypeOf(value) !== Array.prototype) {
    throw new AdapterInputError('MALFORMED', argument, 'must be an array');
  }
  if (value.length > ALIAS_ENTRIES_MAX_CHANGES) {
    throw new AdapterInputError('TOO_MANY', argument, `must have at most ${ALIAS_ENTRIES_MAX_CHANGES} entries`);
  }
  return [...(value as unknown[])];
}

/**
 * A canonical literal IPv4/IPv6 address or CIDR: exactly the spelling pf prints (dotted quad, RFC 5952
 * lower-case), a CIDR naming its network. No FQDN, range or alias name (their pf table is not comparable).
 */
export function assertEntryAddress(value: unknown, argument: string): string {
  if (typeof value !== 'string') throw new AdapterInputError('NOT_STRING', argument, 'must be a string');
  const ip = parseIpLiteral(value);
  if (ip === null) throw new AdapterInputError('NOT_LITERAL', argument, 'must be a literal IPv4/IPv6 address or CIDR');
  if (formatIpLiteral(ip) !== value || !isNetworkAligned(ip)) {
    throw new AdapterInputError('NOT_CANONICAL', argument, 'must be in canonical form (lower-case, compressed, network address)');
  }
  return value;
}

// Unicode control, format, surrogate, unassigned and separator characters other than the plain space.
const NOT_PRINTABLE = /[\p{C}\p{Zl}\p{Zp}]/u;

/** A detail: NFC, 1–200 printable characters, no `|` (pfrest joins details with `||`). */
export function assertEntryDetail(value: unknown, argument: string): string {
  const text = assertNfcArgument(value, argument);
  if (text.length === 0) throw new AdapterInputError('EMPTY', argument, 'must not be empty (omit it for the fixed text)');
  if ([...text].length > ALIAS_ENTRY_DETAIL_MAX_LENGTH) {
    throw new AdapterInputError('TOO_LONG', argument, `must be at most ${ALIAS_ENTRY_DETAIL_MAX_LENGTH} characters`);
  }
  if (NOT_PRINTABLE.test(text)) throw new AdapterInputError('CONTROL_CHARACTER', argument, 'must be printable');
  if (text.includes('|')) throw new AdapterInputError('FORBIDDEN_CHARACTER', argument, 'must not contain |');
  return text;
}

function parseAddition(value: unknown, argument: string): AliasEntryAddition {
  const v = checkKeys(value, ['address'], ['detail'], argument);
  return Object.freeze({
    address: assertEntryAddress(v.address, `${argument}.address`),
    detail: v.detail === undefined ? ALIAS_ENTRY_DEFAULT_DETAIL : assertEntryDetail(v.detail, `${argument}.detail`),
  });
}

/** The lists of a change, checked together: 1–64 entries, no address twice (in either list, by key). */
function checkedChange(alias_name: string, addRaw: unknown, removeRaw: unknown, argument: string): AliasEntriesInput {
  const add = list(addRaw, `${argument}add`).map((a, i) => parseAddition(a, `${argument}add[${i}]`));
  const remove = list(removeRaw, `${argument}remove`).map((r, i) => assertEntryAddress(r, `${argument}remove[${i}]`));
  const total = add.length + remove.length;
  if (total === 0) throw new AdapterInputError('EMPTY', `${argument}add`, 'add or remove at least one entry');
  if (total > ALIAS_ENTRIES_MAX_CHANGES) {
    throw new AdapterInputError('TOO_MANY', `${argument}add`, `at most ${ALIAS_ENTRIES_MAX_CHANGES} entries per change`);
  }
  const keys = [...add.map((a) => a.address), ...remove].map(entryKeyOf);
  if (new Set(keys).size !== keys.length) throw new AdapterInputError('DUPLICATE', `${argument}add`, 'names an address twice');
  return Object.freeze({ alias_name, add: Object.freeze(add), remove: Object.freeze(remove) });
}

/** The caller's `{alias_name, add?: [{address, detail?}], remove?: [address]}`, checked without the appliance. */
export function parseAliasEntriesInput(value: unknown, argument = 'input'): AliasEntriesInput {
  const v = checkKeys(value, ['alias_name'], ['add', 'remove'], argument);
  return checkedChange(assertAliasName(v.alias_name, 'alias_name'), v.add, v.remove, '');
}

/** A (decrypted) normalized intent, validated, as a frozen copy. */
export function parseAliasEntriesIntent(value: unknown, argument = 'intent'): AliasEntriesIntent {
  const v = checkKeys(value, ['operation', 'raw_target_hint', 'add', 'remove'], [], argument);
  if (v.operation !== ALIAS_ENTRIES_OPERATION) {
    throw new AdapterInputError('MALFORMED', `${argument}.operation`, `must be "${ALIAS_ENTRIES_OPERATION}"`);
  }
  const hint = parseAliasIdentity(v.raw_target_hint, `${argument}.raw_target_hint`);
  const change = checkedChange(hint.alias_name, v.add, v.remove, `${argument}.`);
  return Object.freeze({ operation: ALIAS_ENTRIES_OPERATION, raw_target_hint: hint, add: change.add, remove: change.remove });
}

/** The intent a checked input asks for (no appliance involved). */
export function aliasEntriesIntentOf(input: AliasEntriesInput): AliasEntriesIntent {
  const checked = parseAliasEntriesIntent({
    operation: ALIAS_ENTRIES_OPERATION,
    raw_target_hint: { alias_name: input.alias_name },
    add: input.add,
    remove: input.remove,
  });
  return checked;
}

/** digest(INTENT, normalized intent) — what the contract's intent_digest binds. */
export function aliasEntriesIntentDigest(intent: unknown): string {
  return digest(DigestPurpose.INTENT, parseAliasEntriesIntent(intent));
}
