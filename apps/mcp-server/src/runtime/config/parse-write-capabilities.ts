import { isIP } from 'node:net';
import { ConfigError } from './config-error.js';

/**
 * The write capabilities an operator may name in PFSENSE_WRITE_CAPABILITIES (README "Environment"), each on top
 * of the three gates (implemented, granted, allow-listed): the description of an alias, and the entries of an
 * address alias applied to pf. Only the description by default, so an upgrade never adds a write tool on its own.
 */
export const WRITE_CAPABILITY_NAMES = Object.freeze(['alias_description', 'alias_entries'] as const);
export type WriteCapabilityName = (typeof WRITE_CAPABILITY_NAMES)[number];
export const DEFAULT_WRITE_CAPABILITIES: readonly WriteCapabilityName[] = Object.freeze(['alias_description']);

/** The policy capability each name enables (libs/policy's names). */
export const CAPABILITY_OF_NAME: Readonly<Record<WriteCapabilityName, 'ALIAS_WRITE' | 'ALIAS_ENTRIES_WRITE'>> = Object.freeze({
  alias_description: 'ALIAS_WRITE',
  alias_entries: 'ALIAS_ENTRIES_WRITE',
});

/** The operator's bounds on the entries a change may touch (PFSENSE_WRITE_MAX_PREFIX_V4/_V6, _PROTECTED_NETWORKS). */
export interface EntriesBounds {
  readonly maxPrefixV4: number;
  readonly maxPrefixV6: number;
  readonly protectedNetworks: readonly string[];
}

export function isWriteCapabilityName(value: string): value is WriteCapabilityName {
  return (WRITE_CAPABILITY_NAMES as readonly string[]).includes(value);
}

/** Comma-separated names, no empty item, no repeat; an unknown name stops start-up (ConfigError names the rule). */
export function parseWriteCapabilities(raw: string | undefined): readonly WriteCapabilityName[] {
  const variable = 'PFSENSE_WRITE_CAPABILITIES';
  if (raw === undefined || raw === '') return DEFAULT_WRITE_CAPABILITIES;
  const names = raw.split(',').map((n) => n.trim());
  if (names.some((n) => !isWriteCapabilityName(n))) {
    throw new ConfigError(
      'UNKNOWN_WRITE_CAPABILITY',
      variable,
      `${variable} names an unknown write capability (known: ${WRITE_CAPABILITY_NAMES.join(', ')})`,
    );
  }
  if (new Set(names).size !== names.length) throw new ConfigError('INVALID_VALUE', variable, `${variable} names a capability twice`);
  return Object.freeze(names as WriteCapabilityName[]);
}

/**
 * The prefix bounds per family: an integer from the product's broadest (the default) to the family's full length —
 * only narrower. One rule for PFSENSE_WRITE_MAX_PREFIX_V4/_V6 and an inventory entry's write_max_prefix_v4/_v6.
 */
export const PREFIX_BOUNDS = Object.freeze({
  v4: Object.freeze({ broadest: 8, full: 32 }),
  v6: Object.freeze({ broadest: 32, full: 128 }),
});
export type PrefixFamily = keyof typeof PREFIX_BOUNDS;

/** Whether `value` is an allowed prefix bound of the family. */
export function isPrefixBound(value: unknown, family: PrefixFamily): value is number {
  const { broadest, full } = PREFIX_BOUNDS[family];
  return typeof value === 'number' && Number.isInteger(value) && value >= broadest && value <= full;
}

/** What the bound must be, said once for the variable and the inventory field. */
export function prefixBoundRule(family: PrefixFamily): string {
  const { broadest, full } = PREFIX_BOUNDS[family];
  return `must be a prefix length from ${broadest} to ${full} (it may only narrow /${broadest})`;
}

/** A prefix bound from its variable; unset or empty: the broadest. */
function parsePrefix(raw: string | undefined, variable: string, family: PrefixFamily): number {
  if (raw === undefined || raw === '') return PREFIX_BOUNDS[family].broadest;
  if (!/^\d{1,3}$/.test(raw) || !isPrefixBound(Number(raw), family)) {
    throw new ConfigError('INVALID_VALUE', variable, `${variable} ${prefixBoundRule(family)}`);
  }
  return Number(raw);
}

/** At most this many protected networks (the variable's items, an inventory entry's list). */
export const MAX_PROTECTED_NETWORKS = 256;

/** A literal address or CIDR; the adapter checks its canonical form when the runtime is built. */
export function isNetworkLiteral(item: string): boolean {
  const [address = '', prefix, extra] = item.split('/');
  return extra === undefined && isIP(address) !== 0 && (prefix === undefined || /^\d{1,3}$/.test(prefix));
}

/** Comma-separated literal addresses or CIDRs. */
function parseNetworks(raw: string | undefined): readonly string[] {
  const variable = 'PFSENSE_WRITE_PROTECTED_NETWORKS';
  if (raw === undefined || raw === '') return Object.freeze([]);
  const items = raw.split(',').map((n) => n.trim());
  if (items.length > MAX_PROTECTED_NETWORKS || !items.every(isNetworkLiteral)) {
    throw new ConfigError('INVALID_VALUE', variable, `${variable} must be comma-separated IPv4/IPv6 addresses or CIDRs`);
  }
  return Object.freeze(items);
}

/** The entries bounds from the environment: defaults /8, /32 and no protected network. */
export function parseEntriesBounds(env: {
  readonly PFSENSE_WRITE_MAX_PREFIX_V4?: string | undefined;
  readonly PFSENSE_WRITE_MAX_PREFIX_V6?: string | undefined;
  readonly PFSENSE_WRITE_PROTECTED_NETWORKS?: string | undefined;
}): EntriesBounds {
  return Object.freeze({
    maxPrefixV4: parsePrefix(env.PFSENSE_WRITE_MAX_PREFIX_V4, 'PFSENSE_WRITE_MAX_PREFIX_V4', 'v4'),
    maxPrefixV6: parsePrefix(env.PFSENSE_WRITE_MAX_PREFIX_V6, 'PFSENSE_WRITE_MAX_PREFIX_V6', 'v6'),
    protectedNetworks: parseNetworks(env.PFSENSE_WRITE_PROTECTED_NETWORKS),
  });
}
