import { isGranted, type Capability } from '@pfsense-mcp/policy';
import {
  PFREST_TESTED_RANGE,
  findReadTool,
  formatPfrestVersion,
  isTestedPfrestVersion,
  parsePfrestVersion,
  runReadTool,
  type RestApiClient,
} from '@pfsense-mcp/pfsense-read';
import { buildReadClient } from './build-read-client.js';
import { classifyToolError } from './classify-tool-error.js';
import { ConfigError } from './config-error.js';
import { loadConfig } from './load-config.js';
import { readApiKey } from './read-api-key.js';
import { knownToolNames, selectTools } from './select-tools.js';
import { writeCliAnswer } from './write-cli-output.js';

/** The first GET --check-config makes: the pfREST package version (small, no secret). */
export const CHECK_PATH = '/api/v2/system/restapi/version';
/** The second: pfREST's own settings (authentication methods, read-only mode); a key may lack its privilege. */
export const SETTINGS_PATH = '/api/v2/system/restapi/settings';

const TESTED = `${PFREST_TESTED_RANGE.min} – ${PFREST_TESTED_RANGE.max}`;

/**
 * --check-config: validates the configuration, reads the key file, makes two GETs (the pfREST version, then its
 * settings) and prints a short report on stdout. Exit 0 when the configuration holds and the appliance answers;
 * what the server survives (an untested pfREST version, settings it cannot read, read-only mode under a write
 * profile) is a WARNING line, not a failure. Exit 1 otherwise. Never prints the key or a response body.
 */
export async function runCheckConfig(env: Readonly<Record<string, string | undefined>>): Promise<number> {
  const lines: string[] = ['pfsense-mcp --check-config'];
  let warnings = 0;
  const warn = (label: string, text: string) => {
    warnings += 1;
    lines.push(`  ${label.padEnd(15)} WARNING: ${text}`);
  };
  const done = (code: number) => {
    if (code === 0) lines.push(`  result          ok${warnings === 0 ? '' : ` with ${warnings} warning${warnings === 1 ? '' : 's'}`}`);
    writeCliAnswer(lines.join('\n'));
    return code;
  };
  let handle: ReturnType<typeof buildReadClient>;
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(env, knownToolNames());
    const selection = selectTools(config.profile, config.allowedTools, undefined, config.toolsets);
    lines.push(`  configuration   ok`);
    lines.push(`  appliance       ${config.url}`);
    lines.push(`  profile         ${config.profile} (${selection.names.size} tools would be registered)`);
    lines.push(`  toolsets        ${config.toolsets === null ? 'all (PFSENSE_TOOLSETS unset)' : config.toolsets.size === 0 ? 'none' : [...config.toolsets].join(', ')}`);
    const apiKey = readApiKey(config.apiKeyFile);
    lines.push(`  api key file    ok (owner-only)`);
    handle = buildReadClient(config, apiKey);
  } catch (error) {
    lines.push(`  configuration   FAILED: ${error instanceof ConfigError ? error.message : 'internal error'}`);
    return done(1);
  }
  try {
    let version: unknown;
    try {
      version = await readData(handle.client, 'pfsense_get_system_restapi_version');
    } catch (error) {
      lines.push(`  reachability    FAILED (GET ${CHECK_PATH}): ${describeFailure(error)}`);
      return done(1);
    }
    lines.push(`  reachability    ok (GET ${CHECK_PATH})`);
    const parsed = parsePfrestVersion((version as { current_version?: unknown } | null)?.current_version);
    if (parsed === null) {
      warn('pfrest version', `not reported in a known form; tested range ${TESTED}`);
    } else if (isTestedPfrestVersion(parsed)) {
      lines.push(`  pfrest version  ${formatPfrestVersion(parsed)} (tested range ${TESTED})`);
    } else {
      warn(
        'pfrest version',
        `${formatPfrestVersion(parsed)} is outside the tested range ${TESTED}; the READ tools still work, and a field whose type changed comes back null, named in the result's drift list`,
      );
    }
    reportSettings(await readSettings(handle.client), config.profile, lines, warn);
    return done(0);
  } finally {
    handle.close();
  }
}

type Settings = { ok: true; authMethods: unknown; readOnly: unknown } | { ok: false; failure: string };

async function readSettings(client: RestApiClient): Promise<Settings> {
  try {
    const data = (await readData(client, 'pfsense_get_system_restapi_settings')) as { auth_methods?: unknown; read_only?: unknown } | null;
    return { ok: true, authMethods: data?.auth_methods, readOnly: data?.read_only };
  } catch (error) {
    return { ok: false, failure: describeFailure(error) };
  }
}

function reportSettings(settings: Settings, profile: Parameters<typeof isGranted>[0], lines: string[], warn: (label: string, text: string) => void): void {
  if (!settings.ok) {
    warn(
      'settings',
      `not readable (GET ${SETTINGS_PATH}: ${settings.failure}); key auth and read-only mode unknown — the key needs the privilege of pfsense_get_system_restapi_settings to check them`,
    );
    return;
  }
  const methods = Array.isArray(settings.authMethods) ? settings.authMethods.filter((m): m is string => typeof m === 'string') : null;
  if (methods === null) warn('key auth', 'unknown (pfREST did not report its authentication methods)');
  else if (methods.includes('KeyAuth')) lines.push('  key auth        enabled');
  else warn('key auth', 'KeyAuth is not among the enabled authentication methods; enable it under System › REST API › Settings');

  // Read-only mode is what a reader-only API should use; it only matters as a problem to a profile that writes.
  const writes = isGranted(profile, 'ALIAS_WRITE' as Capability);
  if (settings.readOnly === true) {
    if (writes) warn('read-only mode', `on: pfREST refuses every write, so the ${profile} profile's alias-description write would fail (READ tools work)`);
    else lines.push('  read-only mode  on (pfREST answers GET only; every READ tool works)');
  } else if (settings.readOnly === false) {
    lines.push(`  read-only mode  off${writes ? '' : ' (enable it if this appliance’s API serves only readers)'}`);
  } else {
    warn('read-only mode', 'unknown (pfREST did not report it)');
  }
}

/** One READ tool's projected data (drift-tolerant, like every READ tool). */
async function readData(client: RestApiClient, toolName: string): Promise<unknown> {
  const tool = findReadTool(toolName);
  if (tool === undefined) throw new TypeError(`check-config: no READ tool ${toolName}`);
  return (await runReadTool(client, tool, {})).data;
}

function describeFailure(error: unknown): string {
  const safe = classifyToolError(error);
  const status = safe.httpStatus === null ? '' : `, HTTP ${safe.httpStatus}`;
  return `${safe.code}${status} — ${safe.message}`;
}
