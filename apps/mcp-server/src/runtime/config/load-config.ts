import { isIPv4 } from 'node:net';
import { isAbsolute } from 'node:path';
// zod's mini build: the configuration is read before the first reply, which must not wait for all of zod (docs/DESIGN.md §8).
import * as z from 'zod/mini';
import { parseProfile, type Profile } from '@pfsense-mcp/policy';
import { ConfigError } from './config-error.js';
import { parseAllowedTools } from './parse-allowed-tools.js';
import { parseToolsets } from './parse-toolsets.js';
import { parseEntriesBounds, parseWriteCapabilities } from './parse-write-capabilities.js';
import type { EntriesBounds, WriteCapabilityName } from './parse-write-capabilities.js';

export const LOG_LEVELS = Object.freeze(['debug', 'info', 'warn', 'error', 'silent'] as const);
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The validated server configuration. Holds the key file's path, never the key. */
export interface ServerConfig {
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
   * The write runtime's variables, as given (null when unset). They are checked when the write runtime is built
   * (open-write-runtime.ts): a problem there keeps the write tool absent and READ serving, never stops startup.
   */
  readonly write?: WriteEnvironment;
}

/** PFSENSE_WRITE_DIR, PFSENSE_WRITE_ANCHOR_DIR, PFSENSE_WRITE_API_KEY_FILE, PFSENSE_WRITE_EXCHANGE_DIR as given (null when unset). */
export interface WriteEnvironment {
  readonly dir: string | null;
  readonly anchorDir: string | null;
  readonly apiKeyFile: string | null;
  /** PFSENSE_WRITE_CAPABILITIES: the write capabilities offered (default `alias_description`); absent = the default. */
  readonly capabilities?: readonly WriteCapabilityName[];
  /** PFSENSE_WRITE_MAX_PREFIX_V4/_V6 and PFSENSE_WRITE_PROTECTED_NETWORKS; absent = the defaults. */
  readonly entriesBounds?: EntriesBounds;
  /** The exchange folder shared with the signing machine (docs/DESIGN.md §6); absent or null: none. */
  readonly exchangeDir?: string | null;
}

const MAX_VALUE_LENGTH = 4096;
const text = z.string().check(z.maxLength(MAX_VALUE_LENGTH));
const required = z.string().check(z.maxLength(MAX_VALUE_LENGTH), z.minLength(1));
// Boolean variables are exactly `true` or `false` (README "Environment"): no `1`, `yes` or `TRUE`.
const flag = z.enum(['true', 'false']);

const REQUIRED = ['PFSENSE_URL', 'PFSENSE_API_KEY_FILE'] as const;

// Only these variables are read; anything else in the environment is ignored.
const EnvSchema = z.object({
  PFSENSE_URL: required,
  PFSENSE_API_KEY_FILE: required,
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
 * The same rule as transports' isLoopbackHost (localhost, [::1], 127.0.0.0/8), so a URL this accepts is never one
 * the transport then refuses, nor the reverse; test/config.test.ts compares the two on every case. It is a copy,
 * not an import, on purpose: importing @pfsense-mcp/transports here would evaluate the HTTP stack before the `initialize`
 * reply (the bundle defers it until after), costing cold start.
 */
export function isLoopbackHostname(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]' || host === '::1') return true;
  return isIPv4(host) && host.startsWith('127.');
}

/**
 * Reads and validates the configuration from `env`. Fails closed: the first problem throws a ConfigError
 * whose message names the variable and the rule, never the offending value. Makes no network call and
 * does not read the key file (see readApiKey).
 */
export function loadConfig(env: Readonly<Record<string, string | undefined>>, knownToolNames: ReadonlySet<string>): ServerConfig {
  const picked = Object.fromEntries(Object.keys(EnvSchema.shape).map((k) => [k, env[k]]));
  const parsed = EnvSchema.safeParse(picked);
  if (!parsed.success) {
    // Every missing required variable at once, so a first run is fixed in one go.
    const missing = REQUIRED.filter((k) => picked[k] === undefined || picked[k] === '');
    if (missing.length > 0) {
      const names = missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(', ')} and ${missing[missing.length - 1]}`;
      throw new ConfigError('INVALID_VALUE', missing[0] as string, `${names} ${missing.length === 1 ? 'is' : 'are'} required`);
    }
    const issue = parsed.error.issues[0];
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

  if (!isAbsolute(e.PFSENSE_API_KEY_FILE)) {
    throw new ConfigError('RELATIVE_PATH', 'PFSENSE_API_KEY_FILE', 'PFSENSE_API_KEY_FILE must be an absolute path');
  }
  if (e.PFSENSE_CA_FILE !== undefined && !isAbsolute(e.PFSENSE_CA_FILE)) {
    throw new ConfigError('RELATIVE_PATH', 'PFSENSE_CA_FILE', 'PFSENSE_CA_FILE must be an absolute path');
  }

  return Object.freeze({
    url: parseBaseUrl(e.PFSENSE_URL, allowHttpLoopback),
    apiKeyFile: e.PFSENSE_API_KEY_FILE,
    caFile: e.PFSENSE_CA_FILE ?? null,
    profile,
    allowedTools: parseAllowedTools(e.PFSENSE_ALLOWED_TOOLS, knownToolNames),
    toolsets: parseToolsets(e.PFSENSE_TOOLSETS),
    logLevel: e.PFSENSE_LOG_LEVEL ?? 'info',
    allowHttpLoopback,
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

/** The appliance origin. https always; plain http only to a loopback host with PFSENSE_ALLOW_HTTP_LOOPBACK. */
function parseBaseUrl(raw: string, allowHttpLoopback: boolean): string {
  const variable = 'PFSENSE_URL';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('INVALID_URL', variable, `${variable} is not a URL`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new ConfigError('URL_CREDENTIALS', variable, `${variable} must not contain credentials; use PFSENSE_API_KEY_FILE`);
  }
  if (url.search !== '' || url.hash !== '' || (url.pathname !== '/' && url.pathname !== '')) {
    throw new ConfigError('URL_NOT_ORIGIN', variable, `${variable} must be the appliance origin only (scheme, host, optional port)`);
  }
  if (url.protocol === 'http:') {
    if (!isLoopbackHostname(url.hostname)) {
      throw new ConfigError('HTTP_NOT_LOOPBACK', variable, `${variable} must use https (plain http is allowed only to a loopback address)`);
    }
    if (!allowHttpLoopback) {
      throw new ConfigError(
        'HTTP_NOT_ALLOWED',
        variable,
        `${variable} uses plain http; set PFSENSE_ALLOW_HTTP_LOOPBACK=true to allow it for a loopback address`,
      );
    }
  } else if (url.protocol !== 'https:') {
    throw new ConfigError('URL_SCHEME', variable, `${variable} must use https`);
  }
  return url.origin;
}
