import { AdapterInputError } from './adapter-error.js';
import { assertEntryAddress } from './alias-entries-intent.js';
import type { AliasEntriesIntent } from './alias-entries-intent.js';
import type { AliasEntriesTarget } from './alias-entries-target.js';
import { isUsedByEnabledRule } from './alias-usage.js';
import { entryKeyOf, ipLiteralsOverlap, parseIpLiteral } from './ip-literal.js';
import type { IpLiteral } from './ip-literal.js';

/**
 * The operator's bounds on the entries a change may touch (docs/DESIGN.md §5), given by the composition root:
 * the broadest prefix per family (PFSENSE_WRITE_MAX_PREFIX_V4 / _V6, defaults /8 and /32, only narrower),
 * the networks never touched (PFSENSE_WRITE_PROTECTED_NETWORKS) and the alias size bound after the change.
 */
export interface AliasEntriesLimits {
  readonly maxPrefixV4: number;
  readonly maxPrefixV6: number;
  readonly protectedNetworks: readonly string[];
  readonly maxMembers: number;
}

/** The broadest prefixes the product ever allows; configuration may only narrow them. */
export const DEFAULT_MAX_PREFIX_V4 = 8;
export const DEFAULT_MAX_PREFIX_V6 = 32;

function intIn(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

/** Validates limits (TypeError naming the field, never a value) and returns a frozen copy. */
export function checkAliasEntriesLimits(limits: AliasEntriesLimits): AliasEntriesLimits {
  if (limits === null || typeof limits !== 'object') throw new TypeError('alias entries limits: must be an object');
  if (!intIn(limits.maxPrefixV4, DEFAULT_MAX_PREFIX_V4, 32)) throw new TypeError('alias entries limits: "maxPrefixV4" must be 8–32');
  if (!intIn(limits.maxPrefixV6, DEFAULT_MAX_PREFIX_V6, 128)) throw new TypeError('alias entries limits: "maxPrefixV6" must be 32–128');
  if (!intIn(limits.maxMembers, 1, 1_000_000)) throw new TypeError('alias entries limits: "maxMembers" must be a positive integer');
  if (!Array.isArray(limits.protectedNetworks) || limits.protectedNetworks.length > 256) {
    throw new TypeError('alias entries limits: "protectedNetworks" must be an array of at most 256 CIDRs');
  }
  limits.protectedNetworks.forEach((n, i) => {
    try {
      assertEntryAddress(n, `protectedNetworks[${i}]`);
    } catch {
      throw new TypeError(`alias entries limits: "protectedNetworks[${i}]" must be a canonical address or CIDR`);
    }
  });
  return Object.freeze({ ...limits, protectedNetworks: Object.freeze([...limits.protectedNetworks]) });
}

function refuse(code: ConstructorParameters<typeof AdapterInputError>[0], argument: string, detail: string): never {
  throw new AdapterInputError(code, argument, detail);
}

/** The complete new lists: the pre-state minus the removed entries (by key, order kept), then the added ones. */
export function expectedEntriesOf(
  target: Pick<AliasEntriesTarget, 'address' | 'detail'>,
  intent: Pick<AliasEntriesIntent, 'add' | 'remove'>,
): { readonly address: readonly string[]; readonly detail: readonly string[] } {
  const removed = new Set(intent.remove.map(entryKeyOf));
  const kept = target.address.flatMap((a, i) => (removed.has(entryKeyOf(a)) ? [] : [i]));
  return Object.freeze({
    address: Object.freeze([...kept.map((i) => target.address[i] as string), ...intent.add.map((a) => a.address)]),
    detail: Object.freeze([...kept.map((i) => target.detail[i] as string), ...intent.add.map((a) => a.detail)]),
  });
}

/**
 * The rules that depend on the alias as read (docs/DESIGN.md §5), in the order a caller can act on:
 * input errors first (an added entry already present, a removed one absent), then refusals — the alias is
 * not a host or network alias of literal entries, no enabled rule uses it, a CIDR in a host alias or a bare
 * address in a network alias (pfrest's is_ipaddr / is_subnet), a prefix broader than the bound, an entry
 * overlapping a protected network, or more members after the change than the bound.
 */
export function checkEntriesChange(target: AliasEntriesTarget, intent: AliasEntriesIntent, limits: AliasEntriesLimits): void {
  const present = new Set(target.address.map(entryKeyOf));
  intent.add.forEach((a, i) => {
    if (present.has(entryKeyOf(a.address))) refuse('ALREADY_PRESENT', `add[${i}].address`, 'is already an entry of the alias');
  });
  intent.remove.forEach((r, i) => {
    if (!present.has(entryKeyOf(r))) refuse('NOT_PRESENT', `remove[${i}]`, 'is not an entry of the alias');
  });
  if (target.type !== 'host' && target.type !== 'network') refuse('UNSUPPORTED_ALIAS', 'alias_name', 'must be a host or network alias');
  if (target.address.some((a) => parseIpLiteral(a) === null)) {
    refuse('UNSUPPORTED_ALIAS', 'alias_name', 'holds an entry that is not a literal address or CIDR');
  }
  if (!isUsedByEnabledRule(target.usage)) refuse('NOT_REFERENCED', 'alias_name', 'is not used by any enabled filter rule');
  const protectedNets = limits.protectedNetworks.map((n) => parseIpLiteral(n) as IpLiteral);
  const touched = [
    ...intent.add.map((a, i) => [a.address, `add[${i}].address`] as const),
    ...intent.remove.map((r, i) => [r, `remove[${i}]`] as const),
  ];
  touched.forEach(([address, argument]) => {
    const ip = parseIpLiteral(address) as IpLiteral;
    const added = argument.startsWith('add');
    if (added && target.type === 'host' && ip.hasPrefix) refuse('CIDR_IN_HOST_ALIAS', argument, 'a CIDR belongs in a network alias');
    if (added && target.type === 'network' && !ip.hasPrefix) refuse('NOT_CIDR', argument, 'a network alias takes CIDRs');
    const bound = ip.family === 4 ? limits.maxPrefixV4 : limits.maxPrefixV6;
    if (ip.prefix < bound) refuse('PREFIX_TOO_BROAD', argument, `is broader than the configured /${bound}`);
    if (protectedNets.some((p) => ipLiteralsOverlap(ip, p))) refuse('PROTECTED_NETWORK', argument, 'overlaps a protected network');
  });
  const after = target.address.length - intent.remove.length + intent.add.length;
  if (after > limits.maxMembers) refuse('TOO_LARGE', 'add', `the alias would hold more than ${limits.maxMembers} entries`);
}
