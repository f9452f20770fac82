import { isAbsolute } from 'node:path';
// zod's mini build: the configuration is read before the first reply, which must not wait for all of zod (docs/DESIGN.md §8).
import * as z from 'zod/mini';
import { parseProfile, type Profile } from '@pfsense-mcp/policy';
import { DEFAULT_APPLIANCE_NAME, type ApplianceConfig } from './appliance-config.js';
import { ConfigError } from './config-error.js';
import { INVENTORY_FIELD_OF_WRITE_VARIABLE } from './inventory-write-fields.js';
import { INVENTORY_VARIABLE, loadInventory } from './load-inventory.js';
import { parseBaseUrl } from './parse-base-url.js';
import { parseAllowedTools } from './parse-allowed-tools.js';
import { parseToolsets } from './parse-toolsets.js';
import { parseEntriesBounds, parseWriteCapabilities } from './parse-write-capabilities.js';
import type { WriteEnvironment } from './write-environment.js';

export type { WriteEnvironment } from './write-environment.js';

export const LOG_LEVELS = Object.freeze(['debug', 'info', 'warn', 'error', 'silent'] as const);
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The validated server configuration. Holds the key file's path, never the key. */
export interface ServerConfig {
  /**
   * The appliances READ tools reach, in inventory order: PFSENSE_INVENTORY_FILE's, or the single-appliance variables
   * as one named `default`. `url`, `apiKeyFile`, `caFile` and `allowHttpLoopback` are the first one's (without an
   * inventory, the write runtime's appliance; with one, each write runtime is built from writeConfigOf). loadConfig always sets both; a
   * configuration built by hand (tests, bench) may leave them out: appliancesOf says what they mean then.
   */
  readonly appliances?: readonly ApplianceConfig[];
  /** PFSENSE_INVENTORY_FILE as given, or null (single-appliance variables). Absent: null. */
  readonly inventoryFile?: string | null;
  readonly url: string;
  readonly apiKeyFile: string;
  readonly caFile: string | null;
  readonly profile: Profile;
  /** null: PFSENSE_ALLOWED_TOOLS unset (the profile decides alone). */
  readonly allowedTools: ReadonlySet<string> | null;
  /** null: PFSENSE_TOOLSETS unset (every toolset). */
  readonly toolsets: ReadonlySet<string> | null;
  readonly logLevel: LogLevel;
  readonly allowHttpLoopback: boolean;
  /**
   * The write runtime's variables, as given (null when unset; with an inventory always unset: each appliance's
   * `write` holds its entry's fields instead). They are checked when the write runtime is built
   * (open-write-runtime.ts): a problem there keeps the write tool absent and READ serving, never stops startup.
   */
  readonly write?: WriteEnvironment;
}

const MAX_VALUE_LENGTH = 4096;
const text = z.string().check(z.maxLength(MAX_VALUE_LENGTH));
const required = z.string().check(z.maxLength(MAX_VALUE_LENGTH), z.minLength(1));
// Boolean variables are exactly `true` or `false` (README "Environment"): no `1`, `yes` or `TRUE`.
const flag = z.enum(['true', 'false']);

const REQUIRED = ['PFSENSE_URL', 'PFSENSE_API_KEY_FILE'] as const;

// Only these variables are read; anything else in the environment is ignored.
const EnvSchema = z.object({
  PFSENSE_INVENTORY_FILE: z.optional(text),
  PFSENSE_URL: z.optional(required),
  PFSENSE_API_KEY_FILE: z.optional(required),
  PFSENSE_CA_FILE: z.optional(required),
  PFSENSE_PROFILE: z.optional(text),
  PFSENSE_ALLOWED_TOOLS: z.optional(text),
  PFSENSE_TOOLSETS: z.optional(text),
  PFSENSE_LOG_LEVEL: z.optional(z.enum(LOG_LEVELS)),
  PFSENSE_ALLOW_HTTP_LOOPBACK: z.optional(flag),
  PFSENSE_WRITE_DIR: z.optional(text),
  PFSENSE_WRITE_ANCHOR_DIR: z.optional(text),
  PFSENSE_WRITE_API_KEY_FILE: z.optional(text),
  PFSENSE_WRITE_CAPABILITIES: z.optional(text),
  PFSENSE_WRITE_MAX_PREFIX_V4: z.optional(text),
  PFSENSE_WRITE_MAX_PREFIX_V6: z.optional(text),
  PFSENSE_WRITE_PROTECTED_NETWORKS: z.optional(text),
  PFSENSE_WRITE_EXCHANGE_DIR: z.optional(text),
});

/**
 * Reads and validates the configuration from `env`. Fails closed: the first problem throws a ConfigError
 * whose message names the variable and the rule, never the offending value. Makes no network call and
 * does not read the key file (see readApiKey).
 */
export function loadConfig(env: Readonly<Record<string, string | undefined>>, knownToolNames: ReadonlySet<string>): ServerConfig {
  const picked = Object.fromEntries(Object.keys(EnvSchema.shape).map((k) => [k, env[k]]));
  const inventoryFile = nonEmpty(picked['PFSENSE_INVENTORY_FILE']);
  if (inventoryFile !== null) {
    refuseSingleApplianceVariables(picked);
    refuseSingleApplianceWriteVariables(picked);
    // Empty counts as unset (nonEmpty): with an inventory, an empty PFSENSE_URL is no PFSENSE_URL.
    for (const k of SINGLE_APPLIANCE_VARIABLES) picked[k] = undefined;
  }
  const parsed = EnvSchema.safeParse(picked);
  // Every missing required variable at once, so a first run is fixed in one go.
  const missing = inventoryFile === null ? REQUIRED.filter((k) => picked[k] === undefined || picked[k] === '') : [];
  if (!parsed.success || missing.length > 0) {
    if (missing.length > 0) {
      const names = missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(', ')} and ${missing[missing.length - 1]}`;
      throw new ConfigError('INVALID_VALUE', missing[0] as string, `${names} ${missing.length === 1 ? 'is' : 'are'} required`);
    }
    const issue = parsed.error?.issues[0];
    const variable = String(issue?.path[0] ?? 'environment');
    const rule = issue?.code === 'invalid_type' ? 'is required' : issue?.code === 'too_big' ? 'is too long' : 'is not valid';
    const hint =
      variable === 'PFSENSE_LOG_LEVEL'
        ? ` (one of ${LOG_LEVELS.join(', ')})`
        : variable === 'PFSENSE_ALLOW_HTTP_LOOPBACK'
          ? ' (exactly true or false)'
          : '';
    throw new ConfigError('INVALID_VALUE', variable, `${variable} ${rule}${hint}`);
  }
  const e = parsed.data;
  const allowHttpLoopback = e.PFSENSE_ALLOW_HTTP_LOOPBACK === 'true';

  let profile: Profile;
  try {
    profile = parseProfile(e.PFSENSE_PROFILE ?? 'auditor');
  } catch {
    throw new ConfigError(
      'UNKNOWN_PROFILE',
      'PFSENSE_PROFILE',
      'PFSENSE_PROFILE is not a known profile (auditor, engineer, write_protected)',
    );
  }

  const appliances = inventoryFile === null ? [singleAppliance(e, allowHttpLoopback)] : loadInventory(inventoryFile);
  const first = appliances[0] as ApplianceConfig;
  return Object.freeze({
    appliances: Object.freeze(appliances),
    inventoryFile,
    url: first.url,
    apiKeyFile: first.apiKeyFile,
    caFile: first.caFile,
    profile,
    allowedTools: parseAllowedTools(e.PFSENSE_ALLOWED_TOOLS, knownToolNames),
    toolsets: parseToolsets(e.PFSENSE_TOOLSETS),
    logLevel: e.PFSENSE_LOG_LEVEL ?? 'info',
    allowHttpLoopback: first.allowHttpLoopback,
    write: Object.freeze({
      dir: nonEmpty(e.PFSENSE_WRITE_DIR),
      anchorDir: nonEmpty(e.PFSENSE_WRITE_ANCHOR_DIR),
      apiKeyFile: nonEmpty(e.PFSENSE_WRITE_API_KEY_FILE),
      capabilities: parseWriteCapabilities(e.PFSENSE_WRITE_CAPABILITIES),
      entriesBounds: parseEntriesBounds(e),
      exchangeDir: nonEmpty(e.PFSENSE_WRITE_EXCHANGE_DIR),
    }),
  });
}

/** An empty variable counts as unset (a client configuration may carry `"PFSENSE_WRITE_DIR": ""`). */
function nonEmpty(value: string | undefined): string | null {
  return value === undefined || value === '' ? null : value;
}

/** The single-appliance variables as an inventory of one, named `default`. */
function singleAppliance(e: z.infer<typeof EnvSchema>, allowHttpLoopback: boolean): ApplianceConfig {
  const apiKeyFile = e.PFSENSE_API_KEY_FILE as string;
  if (!isAbsolute(apiKeyFile)) {
    throw new ConfigError('RELATIVE_PATH', 'PFSENSE_API_KEY_FILE', 'PFSENSE_API_KEY_FILE must be an absolute path');
  }
  if (e.PFSENSE_CA_FILE !== undefined && !isAbsolute(e.PFSENSE_CA_FILE)) {
    throw new ConfigError('RELATIVE_PATH', 'PFSENSE_CA_FILE', 'PFSENSE_CA_FILE must be an absolute path');
  }
  const url = parseBaseUrl(e.PFSENSE_URL as string, allowHttpLoopback, {
    variable: 'PFSENSE_URL',
    keySetting: 'PFSENSE_API_KEY_FILE',
    loopbackSetting: 'PFSENSE_ALLOW_HTTP_LOOPBACK=true',
  });
  return Object.freeze({ name: DEFAULT_APPLIANCE_NAME, url, apiKeyFile, caFile: e.PFSENSE_CA_FILE ?? null, allowHttpLoopback });
}

/** The appliance variables PFSENSE_INVENTORY_FILE replaces: each appliance's entry holds them instead. */
const SINGLE_APPLIANCE_VARIABLES = ['PFSENSE_URL', 'PFSENSE_API_KEY_FILE', 'PFSENSE_CA_FILE', 'PFSENSE_ALLOW_HTTP_LOOPBACK'] as const;

/** Both ways of naming appliances at once is an error: which one was meant is not guessed. */
function refuseSingleApplianceVariables(picked: Readonly<Record<string, string | undefined>>): void {
  const set = SINGLE_APPLIANCE_VARIABLES.filter((k) => nonEmpty(picked[k]) !== null);
  if (set.length === 0) return;
  throw new ConfigError(
    'INVENTORY_AND_SINGLE_APPLIANCE',
    set[0] as string,
    `${INVENTORY_VARIABLE} and ${set.join(', ')} are both set; unset ${set.length === 1 ? 'it' : 'them'} and put the appliance in the inventory file (url, api_key_file, ca_file, allow_http_loopback), or unset ${INVENTORY_VARIABLE}`,
  );
}

/**
 * With an inventory each appliance's write settings are its entry's write_* fields (docs/DESIGN.md §8): a
 * PFSENSE_WRITE_* variable would not say which appliance it is for, so it is refused, naming the field to use.
 */
function refuseSingleApplianceWriteVariables(picked: Readonly<Record<string, string | undefined>>): void {
  const set = Object.keys(INVENTORY_FIELD_OF_WRITE_VARIABLE).find((k) => nonEmpty(picked[k]) !== null);
  if (set === undefined) return;
  const fix = `unset it and give the appliance's "${INVENTORY_FIELD_OF_WRITE_VARIABLE[set]}" in the inventory file`;
  throw new ConfigError('INVENTORY_AND_SINGLE_APPLIANCE', set, `${INVENTORY_VARIABLE} and ${set} are both set; ${fix}`);
}
