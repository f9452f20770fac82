import { isAbsolute, resolve, sep } from 'node:path';
// zod's mini build, as load-config.ts: the configuration is read before the first reply (docs/DESIGN.md §8).
import * as z from 'zod/mini';
import {
  DEFAULT_WRITE_CAPABILITIES,
  isNetworkLiteral,
  isPrefixBound,
  MAX_PROTECTED_NETWORKS,
  parseEntriesBounds,
  prefixBoundRule,
  type PrefixFamily,
  WRITE_CAPABILITY_NAMES,
  type WriteCapabilityName,
} from './parse-write-capabilities.js';
import type { WriteEnvironment } from './write-environment.js';

const MAX_PATH = 4096;
/** A path field of an inventory entry, as given; absolute is checked after the type so every problem is named. */
export const inventoryPath = z.string().check(z.minLength(1), z.maxLength(MAX_PATH));

/**
 * An inventory entry's write fields (README "Fleet", docs/DESIGN.md §8): an appliance with write_dir gets its own
 * write runtime — its own store, keys, anchor and exchange folder — with the settings the single-appliance
 * PFSENSE_WRITE_* variables give one appliance. Lists are JSON lists, not comma-separated strings.
 */
export const WRITE_FIELD_SCHEMAS = {
  write_dir: z.optional(inventoryPath),
  write_anchor_dir: z.optional(inventoryPath),
  write_exchange_dir: z.optional(inventoryPath),
  write_api_key_file: z.optional(inventoryPath),
  write_capabilities: z.optional(z.array(z.enum(WRITE_CAPABILITY_NAMES)).check(z.minLength(1))),
  write_protected_networks: z.optional(z.array(z.string().check(z.maxLength(64))).check(z.maxLength(MAX_PROTECTED_NETWORKS))),
  // A number here; its bounds are checked below by the rule PFSENSE_WRITE_MAX_PREFIX_V4/_V6 use (PREFIX_BOUNDS).
  write_max_prefix_v4: z.optional(z.number()),
  write_max_prefix_v6: z.optional(z.number()),
};

type WriteField = keyof typeof WRITE_FIELD_SCHEMAS;
const PATH_FIELDS = ['write_dir', 'write_anchor_dir', 'write_exchange_dir', 'write_api_key_file'] as const;
/** The prefix bound fields and the family each bounds. */
const PREFIX_FIELDS = { write_max_prefix_v4: 'v4', write_max_prefix_v6: 'v6' } as const satisfies Record<string, PrefixFamily>;
/** The directories one appliance's write runtime owns: no other entry may use or nest one of them. */
const DIRECTORY_FIELDS = ['write_dir', 'write_anchor_dir', 'write_exchange_dir'] as const;

export const WRITE_FIELD_RULES: Readonly<Record<WriteField, string>> = Object.freeze({
  write_dir: 'must be an absolute path (a string)',
  write_anchor_dir: 'must be an absolute path (a string)',
  write_exchange_dir: 'must be an absolute path (a string)',
  write_api_key_file: 'must be an absolute path (a string)',
  write_capabilities: `must be a non-empty list of write capability names (known: ${WRITE_CAPABILITY_NAMES.join(', ')})`,
  write_protected_networks: `must be a list of at most ${MAX_PROTECTED_NETWORKS} IPv4/IPv6 addresses or CIDRs`,
  write_max_prefix_v4: prefixBoundRule('v4'),
  write_max_prefix_v6: prefixBoundRule('v6'),
});

/**
 * The single-appliance write variables and the inventory field that replaces each. With an inventory they are
 * refused (which appliance they were meant for is not guessed).
 */
export const INVENTORY_FIELD_OF_WRITE_VARIABLE: Readonly<Record<string, WriteField>> = Object.freeze({
  PFSENSE_WRITE_DIR: 'write_dir',
  PFSENSE_WRITE_ANCHOR_DIR: 'write_anchor_dir',
  PFSENSE_WRITE_EXCHANGE_DIR: 'write_exchange_dir',
  PFSENSE_WRITE_API_KEY_FILE: 'write_api_key_file',
  PFSENSE_WRITE_CAPABILITIES: 'write_capabilities',
  PFSENSE_WRITE_PROTECTED_NETWORKS: 'write_protected_networks',
  PFSENSE_WRITE_MAX_PREFIX_V4: 'write_max_prefix_v4',
  PFSENSE_WRITE_MAX_PREFIX_V6: 'write_max_prefix_v6',
});

/**
 * An entry's write settings once its fields have the right types (`bad`: fields zod refused, already named): null
 * without write_dir. Pushes each further problem (relative path, write field without write_dir, a repeated
 * capability, a protected network that is not an address or CIDR), never a value.
 */
export function checkWriteFields(
  entry: Readonly<Record<string, unknown>>,
  bad: ReadonlySet<string>,
  label: string,
  problems: string[],
): WriteEnvironment | null {
  const given = (Object.keys(WRITE_FIELD_SCHEMAS) as WriteField[]).filter((f) => entry[f] !== undefined);
  if (given.length === 0) return null;
  const before = problems.length;
  if (entry['write_dir'] === undefined) {
    problems.push(`${label}: ${given.join(', ')} ${given.length === 1 ? 'needs' : 'need'} write_dir`);
  }
  const path = (field: (typeof PATH_FIELDS)[number]): string | null => {
    const value = entry[field];
    return bad.has(field) || typeof value !== 'string' ? null : value;
  };
  for (const field of PATH_FIELDS) {
    const value = path(field);
    if (value !== null && !isAbsolute(value)) problems.push(`${label}: ${field} must be an absolute path`);
  }
  const capabilities = bad.has('write_capabilities') ? undefined : (entry['write_capabilities'] as WriteCapabilityName[] | undefined);
  if (capabilities !== undefined && new Set(capabilities).size !== capabilities.length) {
    problems.push(`${label}: write_capabilities names a capability twice`);
  }
  const networks = bad.has('write_protected_networks') ? undefined : (entry['write_protected_networks'] as string[] | undefined);
  if (networks !== undefined && !networks.every(isNetworkLiteral)) {
    problems.push(`${label}: write_protected_networks ${WRITE_FIELD_RULES.write_protected_networks}`);
  }
  const prefix = (field: keyof typeof PREFIX_FIELDS): number | undefined => {
    const value = bad.has(field) ? undefined : entry[field];
    if (value === undefined) return undefined;
    if (isPrefixBound(value, PREFIX_FIELDS[field])) return value;
    problems.push(`${label}: ${field} ${WRITE_FIELD_RULES[field]}`);
    return undefined;
  };
  const maxPrefixV4 = prefix('write_max_prefix_v4');
  const maxPrefixV6 = prefix('write_max_prefix_v6');
  if (problems.length > before || bad.size > 0) return null;
  return Object.freeze({
    dir: path('write_dir'),
    anchorDir: path('write_anchor_dir'),
    exchangeDir: path('write_exchange_dir'),
    apiKeyFile: path('write_api_key_file'),
    capabilities: Object.freeze([...(capabilities ?? DEFAULT_WRITE_CAPABILITIES)]),
    entriesBounds: Object.freeze({
      ...parseEntriesBounds({}),
      ...(maxPrefixV4 === undefined ? {} : { maxPrefixV4 }),
      ...(maxPrefixV6 === undefined ? {} : { maxPrefixV6 }),
      protectedNetworks: Object.freeze([...(networks ?? [])]),
    }),
  });
}

/**
 * Each appliance's write directories are its own (docs/DESIGN.md §8): two entries whose write_dir,
 * write_anchor_dir or write_exchange_dir are the same directory, or one inside the other, would share a store,
 * an anchor or the signer's exchange. Within one entry the three are apart too: an exchange folder inside the
 * write directory (or holding it) would share its keys and stores with the signing machine, an anchor there would
 * sit on the medium it is meant to be apart from. Key files may be shared. Pushes one problem per pair, naming
 * the entry and both fields.
 */
export function refuseSharedWriteDirectories(
  entries: readonly { readonly label: string; readonly write: WriteEnvironment | null }[],
  problems: string[],
): void {
  const seen: { label: string; field: string; dir: string }[] = [];
  for (const { label, write } of entries) {
    if (write === null) continue;
    const own = DIRECTORY_FIELDS.map((field) => ({ field, value: directoryOf(write, field) })).filter(
      (d): d is { field: (typeof DIRECTORY_FIELDS)[number]; value: string } => d.value !== null,
    );
    own.forEach(({ field, value }, i) => {
      const inside = own.slice(0, i).find((o) => nested(resolve(o.value), resolve(value)));
      if (inside !== undefined) problems.push(`${label}: ${field} is or shares a directory with its ${inside.field}`);
    });
    for (const { field, value } of own) {
      const dir = resolve(value);
      const other = seen.find((s) => nested(s.dir, dir));
      if (other !== undefined) problems.push(`${label}: ${field} is or shares a directory with ${other.label}'s ${other.field}`);
    }
    for (const { field, value } of own) seen.push({ label, field, dir: resolve(value) });
  }
}

function directoryOf(write: WriteEnvironment, field: (typeof DIRECTORY_FIELDS)[number]): string | null {
  if (field === 'write_dir') return write.dir;
  if (field === 'write_anchor_dir') return write.anchorDir;
  return write.exchangeDir ?? null;
}

/** The same directory, or one inside the other. */
function nested(a: string, b: string): boolean {
  const slash = (p: string): string => (p.endsWith(sep) ? p : p + sep);
  return a === b || slash(b).startsWith(slash(a)) || slash(a).startsWith(slash(b));
}
