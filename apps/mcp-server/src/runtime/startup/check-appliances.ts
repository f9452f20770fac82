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
 * most FLEET_CONCURRENCY at once, each within its own timeouts), then the write tool's line (not offered with an
 * inventory). Returns true when every appliance's key was readable and it answered.
 */
export async function checkAppliances(config: ServerConfig, lines: string[]): Promise<boolean> {
  const results = await mapBounded(
    appliancesOf(config).map((appliance, index) => ({ appliance, index })),
    FLEET_CONCURRENCY,
    ({ appliance, index }) => checkOne(config, appliance, index),
  );
  for (const result of results) lines.push(result.line);
  lines.push('  write tool      not offered (with PFSENSE_INVENTORY_FILE writes are single-appliance)');
  return results.every((r) => r.ok);
}
