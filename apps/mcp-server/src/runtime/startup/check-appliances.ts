import { findReadTool, formatPfrestVersion, parsePfrestVersion, runReadTool, type RestApiClient } from '@pfsense-mcp/pfsense-read';
import { mapBounded } from '../../tools/map-bounded.js';
import { FLEET_CONCURRENCY } from '../../tools/fleet-read.js';
import { buildReadClient } from '../server/build-read-client.js';
import { classifyToolError } from '../server/classify-tool-error.js';
import { appliancesOf } from '../config/appliances-of.js';
import type { ApplianceConfig } from '../config/appliance-config.js';
import { ConfigError } from '../config/config-error.js';
import { INVENTORY_VARIABLE } from '../config/load-inventory.js';
import type { ServerConfig } from '../config/load-config.js';
import { readApiKey } from '../config/read-api-key.js';
import { writeAppliancesOf } from '../config/write-config-of.js';
import { evaluateStaticWriteGates } from '../write-runtime/evaluate-write-gates.js';
import { checkWriteRuntime } from '../write-runtime/open-write-runtime.js';
import { WriteGateError } from '../write-runtime/write-gate-error.js';

/** One READ tool's projected data, as the server would read it. */
async function readData(client: RestApiClient, toolName: string): Promise<unknown> {
  const tool = findReadTool(toolName);
  if (tool === undefined) throw new TypeError(`check-config: no READ tool ${toolName}`);
  return (await runReadTool(client, tool, {})).data;
}

function failureOf(error: unknown): string {
  if (error instanceof ConfigError) return error.message;
  const safe = classifyToolError(error);
  return `${safe.code}${safe.httpStatus === null ? '' : `, HTTP ${safe.httpStatus}`}`;
}

/** One appliance's line: its key file, reachability and pfREST version, key auth and read-only mode (never a body). */
async function checkOne(config: ServerConfig, appliance: ApplianceConfig, index: number): Promise<{ ok: boolean; line: string }> {
  const head = `${`  appliance ${appliance.name}`.padEnd(17)} `;
  let client: ReturnType<typeof buildReadClient> | null = null;
  try {
    const key = readApiKey(appliance.apiKeyFile, `${INVENTORY_VARIABLE} appliance ${index + 1} (${appliance.name}): api_key_file`);
    const limits = appliance.responseTimeoutMs == null ? {} : { responseTimeoutMs: appliance.responseTimeoutMs };
    client = buildReadClient(
      { ...config, url: appliance.url, caFile: appliance.caFile, allowHttpLoopback: appliance.allowHttpLoopback },
      key,
      limits,
    );
    const version = parsePfrestVersion(
      ((await readData(client.client, 'pfsense_get_system_restapi_version')) as { current_version?: unknown } | null)?.current_version,
    );
    const parts = ['reachable', `pfrest ${version === null ? 'unknown' : formatPfrestVersion(version)}`];
    try {
      const settings = (await readData(client.client, 'pfsense_get_system_restapi_settings')) as {
        auth_methods?: unknown;
        read_only?: unknown;
      } | null;
      const methods = Array.isArray(settings?.auth_methods) ? settings.auth_methods : null;
      parts.push(`key auth ${methods === null ? 'unknown' : methods.includes('KeyAuth') ? 'enabled' : 'NOT enabled'}`);
      parts.push(`read-only mode ${settings?.read_only === true ? 'on' : settings?.read_only === false ? 'off' : 'unknown'}`);
    } catch (error) {
      parts.push(`settings not readable (${failureOf(error)}): key auth and read-only mode unknown`);
    }
    return { ok: true, line: `${head}${parts.join(', ')}` };
  } catch (error) {
    return { ok: false, line: `${head}FAILED: ${failureOf(error)}` };
  } finally {
    client?.close();
  }
}

/**
 * --check-config with PFSENSE_INVENTORY_FILE: one line per appliance, in inventory order, checked concurrently (at
 * most FLEET_CONCURRENCY at once, each within its own timeouts), then one write line per appliance with write_dir
 * (its own gates and write runtime, checked as the server opens it). Returns true when every appliance's key was
 * readable, it answered, and each write runtime asked for could be built.
 */
export async function checkAppliances(config: ServerConfig, lines: string[]): Promise<boolean> {
  const results = await mapBounded(
    appliancesOf(config).map((appliance, index) => ({ appliance, index })),
    FLEET_CONCURRENCY,
    ({ appliance, index }) => checkOne(config, appliance, index),
  );
  for (const result of results) lines.push(result.line);
  const writes = await checkApplianceWrites(config, lines);
  return results.every((r) => r.ok) && writes;
}

/**
 * One line per appliance whose entry has write_dir: `ok`, or ABSENT with the gate, code and rule — one
 * appliance's refused store disables writes on that appliance only (docs/DESIGN.md §8).
 */
async function checkApplianceWrites(config: ServerConfig, lines: string[]): Promise<boolean> {
  const writers = writeAppliancesOf(config);
  if (writers.length === 0) lines.push('  write tool      not requested (no inventory entry has write_dir)');
  let ok = true;
  for (const { name, config: own } of writers) {
    const label = `  ${`write ${name}`.padEnd(15)}`;
    const gates = evaluateStaticWriteGates(own.profile, own.allowedTools, own.write, undefined, own.toolsets);
    try {
      if (gates.failure !== null) throw gates.failure;
      await checkWriteRuntime(own);
      lines.push(`${label} ok (write directory, keys, pinned authorities, both stores and anchors, inbox/outbox)`);
    } catch (error) {
      const e =
        error instanceof WriteGateError
          ? error
          : new WriteGateError('runtime_enabled', 'BUILD_FAILED', 'the write runtime could not be built (internal error)');
      lines.push(`${label} ABSENT (${e.gate}, ${e.code}): ${e.rule}`);
      ok = false;
    }
  }
  return ok;
}
