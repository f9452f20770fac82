import { SYSTEM_HASYNC_PATH, SYSTEM_STATUS_PATH } from '@pfsense-mcp/coordinator';
import { CONFIG_HISTORY_REVISIONS_PATH } from '@pfsense-mcp/executor';
import {
  PFREST_TESTED_RANGE,
  findReadTool,
  formatPfrestVersion,
  isTestedPfrestVersion,
  parsePfrestVersion,
  runReadTool,
  type RestApiClient,
} from '@pfsense-mcp/pfsense-read';
import { buildReadClient } from '../server/build-read-client.js';
import { classifyToolError } from '../server/classify-tool-error.js';
import { ConfigError } from '../config/config-error.js';
import { evaluateStaticWriteGates } from '../write-runtime/evaluate-write-gates.js';
import { writeCapabilityGatesOf } from '../write-runtime/write-capability-gates.js';
import type { StaticWriteGates } from '../write-runtime/evaluate-write-gates.js';
import { loadConfig } from '../config/load-config.js';
import type { ServerConfig } from '../config/load-config.js';
import { appliancesOf, usesInventory } from '../config/appliances-of.js';
import { INVENTORY_VARIABLE } from '../config/load-inventory.js';
import { checkAppliances } from './check-appliances.js';
import { checkWriteRuntime } from '../write-runtime/open-write-runtime.js';
import { readApiKey } from '../config/read-api-key.js';
import { knownToolNames, selectTools } from '../config/select-tools.js';
import { WriteGateError } from '../write-runtime/write-gate-error.js';
import { writeCliAnswer } from './write-cli-output.js';

/** The first GET --check-config makes for READ: the pfREST package version (small, no secret). */
export const CHECK_PATH = '/api/v2/system/restapi/version';
/** The second: pfREST's own settings (authentication methods, read-only mode); a key may lack its privilege. */
export const SETTINGS_PATH = '/api/v2/system/restapi/settings';

const TESTED = `${PFREST_TESTED_RANGE.min} – ${PFREST_TESTED_RANGE.max}`;
/** The write path's reads, made with the READ key whatever PFSENSE_ALLOWED_TOOLS narrows. */
export const WRITE_PATH_READS = Object.freeze([
  '/api/v2/firewall/aliases',
  SYSTEM_STATUS_PATH,
  SYSTEM_HASYNC_PATH,
  // The executor captures the config history before every send and refuses without it (docs/DESIGN.md §4).
  CONFIG_HISTORY_REVISIONS_PATH,
]);

/** The alias entries write's own reads (the rules that use the alias, the pending check, pf's tables). */
export const ENTRIES_READS = Object.freeze(['/api/v2/firewall/rules', '/api/v2/firewall/apply', '/api/v2/diagnostics/tables']);

const yesNo = (b: boolean) => (b ? 'yes' : 'no');

/** The reachability line of one GET (code and status only, never a body). */
async function checkGet(client: RestApiClient, path: string, label: string, lines: string[]): Promise<{ ok: boolean; data: unknown }> {
  try {
    const { data } = await client.read(path);
    lines.push(`  ${label.padEnd(15)} ok (GET ${path})`);
    return { ok: true, data };
  } catch (error) {
    const safe = classifyToolError(error);
    const status = safe.httpStatus === null ? '' : `, HTTP ${safe.httpStatus}`;
    lines.push(`  ${label.padEnd(15)} FAILED (GET ${path}): ${safe.code}${status} — ${safe.message}`);
    return { ok: false, data: null };
  }
}

/** The write part: three facts, the failed gate's reason (the same as the serving server's stderr line). */
async function checkWrite(
  config: ServerConfig,
  gates: StaticWriteGates,
  lines: string[],
): Promise<{ ok: boolean; runtimeChecked: boolean }> {
  const facts = (runtimeEnabled: boolean) =>
    lines.push(
      `  write           ALIAS_WRITE implemented: ${yesNo(gates.implemented)}, granted: ${yesNo(gates.granted)}, runtime-enabled: ${yesNo(runtimeEnabled)}`,
    );
  const reason = (e: WriteGateError) => lines.push(`  write tool      ABSENT (${e.gate}, ${e.code}): ${e.rule}`);
  if (!gates.requested) {
    facts(false);
    lines.push('  write tool      not requested (the profile grants no write; PFSENSE_WRITE_DIR unset)');
    return { ok: true, runtimeChecked: false };
  }
  if (gates.failure !== null) {
    facts(false);
    reason(gates.failure);
    return { ok: false, runtimeChecked: false };
  }
  lines.push(`  capabilities    ${capabilityGates(config, gates)}`);
  if (!gates.selected && !gates.entriesSelected) {
    facts(false);
    lines.push('  write tool      removed by PFSENSE_ALLOWED_TOOLS or PFSENSE_TOOLSETS');
    return { ok: true, runtimeChecked: false };
  }
  try {
    await checkWriteRuntime(config);
  } catch (error) {
    facts(false);
    reason(
      error instanceof WriteGateError
        ? error
        : new WriteGateError('runtime_enabled', 'BUILD_FAILED', 'the write runtime could not be built (internal error)'),
    );
    return { ok: false, runtimeChecked: false };
  }
  facts(true);
  lines.push('  write runtime   ok (write directory, keys, pinned authorities, both stores and anchors, inbox/outbox)');
  return { ok: true, runtimeChecked: true };
}

/** Each write capability's gates on one line (writeCapabilityGatesOf, as pfsense_mcp_info reports them). */
function capabilityGates(config: ServerConfig, gates: StaticWriteGates): string {
  return writeCapabilityGatesOf(config.profile, config.write, gates)
    .map((c) =>
      c.enabled
        ? `${c.name} (${c.capability}): implemented ${yesNo(c.implemented)}, granted ${yesNo(c.granted)}, allow-listed ${yesNo(c.allowListed)}, tool ${c.offered ? 'offered' : 'absent'}`
        : `${c.name} (${c.capability}): not named`,
    )
    .join('; ');
}

type Warn = (label: string, text: string) => void;
type Settings = { ok: true; authMethods: unknown; readOnly: unknown } | { ok: false; failure: string };

function describeFailure(error: unknown): string {
  const safe = classifyToolError(error);
  const status = safe.httpStatus === null ? '' : `, HTTP ${safe.httpStatus}`;
  return `${safe.code}${status} — ${safe.message}`;
}

/** One READ tool's projected data (drift-tolerant, like every READ tool). */
async function readData(client: RestApiClient, toolName: string): Promise<unknown> {
  const tool = findReadTool(toolName);
  if (tool === undefined) throw new TypeError(`check-config: no READ tool ${toolName}`);
  return (await runReadTool(client, tool, {})).data;
}

/** The pfREST version against the tested range: a warning, never a failure, when outside it or unknown. */
function reportVersion(data: unknown, lines: string[], warn: Warn): void {
  const parsed = parsePfrestVersion((data as { current_version?: unknown } | null)?.current_version);
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
}

async function readSettings(client: RestApiClient): Promise<Settings> {
  try {
    const data = (await readData(client, 'pfsense_get_system_restapi_settings')) as { auth_methods?: unknown; read_only?: unknown } | null;
    return { ok: true, authMethods: data?.auth_methods, readOnly: data?.read_only };
  } catch (error) {
    return { ok: false, failure: describeFailure(error) };
  }
}

/** Key auth and read-only mode, as far as the key may read pfREST's settings; all of it warnings at most. */
function reportSettings(settings: Settings, profile: string, writes: boolean, lines: string[], warn: Warn): void {
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
  if (settings.readOnly === true) {
    if (writes)
      warn(
        'read-only mode',
        `on: pfREST refuses every write, so the ${profile} profile's alias-description write would fail (READ tools work)`,
      );
    else lines.push('  read-only mode  on (pfREST answers GET only; every READ tool works)');
  } else if (settings.readOnly === false) {
    lines.push(`  read-only mode  off${writes ? '' : ' (enable it if this appliance’s API serves only readers)'}`);
  } else {
    warn('read-only mode', 'unknown (pfREST did not report it)');
  }
}

/**
 * --check-config: validates the configuration, reads the key file, makes two GETs (the pfREST version, then its
 * settings; plus, when the write tool is to be served, the write path's GETs with the READ key) and prints a
 * short report on stdout. What the server survives — a pfREST version outside the tested range, settings the key
 * cannot read, key auth or read-only mode that look wrong — is a WARNING line, not a failure. Exit 0 when
 * everything else holds, 1 otherwise. Never prints a key or a response body.
 */
export async function runCheckConfig(env: Readonly<Record<string, string | undefined>>): Promise<number> {
  const lines: string[] = ['pfsense-mcp --check-config'];
  let warnings = 0;
  const warn: Warn = (label, text) => {
    warnings += 1;
    lines.push(`  ${label.padEnd(15)} WARNING: ${text}`);
  };
  // One verdict, the last line: `ok` (with its warnings) or FAILED (the lines above say which check failed).
  const done = (code: number) => {
    if (code === 0) lines.push(`  result          ok${warnings === 0 ? '' : ` with ${warnings} warning${warnings === 1 ? '' : 's'}`}`);
    else lines.push('  result          FAILED');
    writeCliAnswer(lines.join('\n'));
    return code;
  };
  const failure = (error: unknown): string => (error instanceof ConfigError ? error.message : 'internal error');
  let handle: ReturnType<typeof buildReadClient>;
  let config: ServerConfig;
  let selection: ReturnType<typeof selectTools>;
  try {
    config = loadConfig(env, knownToolNames());
    selection = selectTools(config.profile, config.allowedTools, undefined, config.toolsets);
  } catch (error) {
    lines.push(`  configuration   FAILED: ${failure(error)}`);
    return done(1);
  }
  lines.push(`  configuration   ok`);
  if (!usesInventory(config)) lines.push(`  appliance       ${config.url}`);
  else lines.push(`  inventory       ${appliancesOf(config).length} appliances (${INVENTORY_VARIABLE})`);
  lines.push(`  profile         ${config.profile} (${selection.names.size} tools would be registered, the write tool not counted)`);
  lines.push(
    `  toolsets        ${config.toolsets === null ? 'all (PFSENSE_TOOLSETS unset)' : config.toolsets.size === 0 ? 'none' : [...config.toolsets].join(', ')}`,
  );
  if (usesInventory(config)) return done((await checkAppliances(config, lines)) ? 0 : 1);
  // Each later check has its own line: a key-file problem is never reported as the configuration's.
  let apiKey: string;
  try {
    apiKey = readApiKey(config.apiKeyFile);
    lines.push(`  api key file    ok (owner-only)`);
  } catch (error) {
    lines.push(`  api key file    FAILED: ${failure(error)}`);
    return done(1);
  }
  try {
    handle = buildReadClient(config, apiKey);
  } catch (error) {
    lines.push(`  connection      FAILED: ${failure(error)}`);
    return done(1);
  }
  try {
    const gates = evaluateStaticWriteGates(config.profile, config.allowedTools, config.write, undefined, config.toolsets);
    const write = await checkWrite(config, gates, lines);
    let ok = write.ok;
    try {
      const version = await readData(handle.client, 'pfsense_get_system_restapi_version');
      lines.push(`  reachability    ok (GET ${CHECK_PATH})`);
      reportVersion(version, lines, warn);
      reportSettings(await readSettings(handle.client), config.profile, gates.granted, lines, warn);
    } catch (error) {
      lines.push(`  reachability    FAILED (GET ${CHECK_PATH}): ${describeFailure(error)}`);
      ok = false;
    }
    if (write.runtimeChecked) {
      // The write path reads with the READ key: it must hold these GET privileges (docs/pfrest-privileges.md).
      const [aliases, status, hasync, history] = WRITE_PATH_READS as readonly [string, string, string, string];
      ok = (await checkGet(handle.client, aliases, 'write read', lines)).ok && ok;
      ok = (await checkGet(handle.client, history, 'write read', lines)).ok && ok;
      const s = await checkGet(handle.client, status, 'write read', lines);
      ok = s.ok && ok;
      const netgateId = s.data !== null && typeof s.data === 'object' ? (s.data as Record<string, unknown>)['netgate_id'] : undefined;
      // pfhostid (HA sync) is read only when the appliance reports no netgate_id.
      if (s.ok && (typeof netgateId !== 'string' || netgateId.length === 0))
        ok = (await checkGet(handle.client, hasync, 'write read', lines)).ok && ok;
      // The entries capability's own rows: the rules, the apply status and pf's tables (docs/pfrest-privileges.md).
      if (gates.entriesSelected)
        for (const path of ENTRIES_READS) ok = (await checkGet(handle.client, path, 'entries read', lines)).ok && ok;
    }
    return done(ok ? 0 : 1);
  } finally {
    handle.close();
  }
}
