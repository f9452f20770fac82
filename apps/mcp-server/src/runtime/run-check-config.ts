import { SYSTEM_HASYNC_PATH, SYSTEM_STATUS_PATH } from '@pfsense-mcp/coordinator';
import type { RestApiClient } from '@pfsense-mcp/pfsense-read';
import { buildReadClient } from './build-read-client.js';
import { classifyToolError } from './classify-tool-error.js';
import { ConfigError } from './config-error.js';
import { evaluateStaticWriteGates } from './evaluate-write-gates.js';
import type { StaticWriteGates } from './evaluate-write-gates.js';
import { loadConfig } from './load-config.js';
import type { ServerConfig } from './load-config.js';
import { checkWriteRuntime } from './open-write-runtime.js';
import { readApiKey } from './read-api-key.js';
import { knownToolNames, selectTools } from './select-tools.js';
import { WriteGateError } from './write-gate-error.js';
import { writeCliAnswer } from './write-cli-output.js';

/** The one GET --check-config makes for READ: the pfREST package version (small, no secret, any read privilege set). */
export const CHECK_PATH = '/api/v2/system/restapi/version';
/** The write path's reads, made with the READ key whatever PFSENSE_ALLOWED_TOOLS narrows. */
export const WRITE_PATH_READS = Object.freeze(['/api/v2/firewall/aliases', SYSTEM_STATUS_PATH, SYSTEM_HASYNC_PATH]);

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
async function checkWrite(config: ServerConfig, gates: StaticWriteGates, lines: string[]): Promise<{ ok: boolean; runtimeChecked: boolean }> {
  const facts = (runtimeEnabled: boolean) =>
    lines.push(`  write           ALIAS_WRITE implemented: ${yesNo(gates.implemented)}, granted: ${yesNo(gates.granted)}, runtime-enabled: ${yesNo(runtimeEnabled)}`);
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
  if (!gates.selected) {
    facts(false);
    lines.push('  write tool      removed by PFSENSE_ALLOWED_TOOLS');
    return { ok: true, runtimeChecked: false };
  }
  try {
    await checkWriteRuntime(config);
  } catch (error) {
    facts(false);
    reason(error instanceof WriteGateError ? error : new WriteGateError('runtime_enabled', 'BUILD_FAILED', 'the write runtime could not be built (internal error)'));
    return { ok: false, runtimeChecked: false };
  }
  facts(true);
  lines.push('  write runtime   ok (write directory, keys, pinned authorities, both stores and anchors, inbox/outbox)');
  return { ok: true, runtimeChecked: true };
}

/**
 * --check-config: validates the configuration, reads the key file, makes one GET (plus, when the write tool is
 * to be served, the write path's GETs with the READ key) and prints a short report on stdout. Exit 0 when
 * everything holds, 1 otherwise. Never prints a key or a response body.
 */
export async function runCheckConfig(env: Readonly<Record<string, string | undefined>>): Promise<number> {
  const lines: string[] = ['pfsense-mcp --check-config'];
  const done = (code: number) => {
    writeCliAnswer(lines.join('\n'));
    return code;
  };
  let handle: ReturnType<typeof buildReadClient>;
  let config: ServerConfig;
  try {
    config = loadConfig(env, knownToolNames());
    const selection = selectTools(config.profile, config.allowedTools);
    lines.push(`  configuration   ok`);
    lines.push(`  appliance       ${config.url}`);
    lines.push(`  profile         ${config.profile} (${selection.names.size} tools would be registered, the write tool not counted)`);
    const apiKey = readApiKey(config.apiKeyFile);
    lines.push(`  api key file    ok (owner-only)`);
    handle = buildReadClient(config, apiKey);
  } catch (error) {
    lines.push(`  configuration   FAILED: ${error instanceof ConfigError ? error.message : 'internal error'}`);
    return done(1);
  }
  try {
    const gates = evaluateStaticWriteGates(config.profile, config.allowedTools, config.write);
    const write = await checkWrite(config, gates, lines);
    let ok = (await checkGet(handle.client, CHECK_PATH, 'reachability', lines)).ok && write.ok;
    if (write.runtimeChecked) {
      // The write path reads with the READ key: it must hold these GET privileges (docs/pfrest-privileges.md).
      const [aliases, status, hasync] = WRITE_PATH_READS as readonly [string, string, string];
      ok = (await checkGet(handle.client, aliases, 'write read', lines)).ok && ok;
      const s = await checkGet(handle.client, status, 'write read', lines);
      ok = s.ok && ok;
      const netgateId = s.data !== null && typeof s.data === 'object' ? (s.data as Record<string, unknown>)['netgate_id'] : undefined;
      // pfhostid (HA sync) is read only when the appliance reports no netgate_id.
      if (s.ok && (typeof netgateId !== 'string' || netgateId.length === 0)) ok = (await checkGet(handle.client, hasync, 'write read', lines)).ok && ok;
    }
    return done(ok ? 0 : 1);
  } finally {
    handle.close();
  }
}
