// PFSENSE_INVENTORY_FILE: an owner-only JSON list of appliances, validated as a whole at start (README
// "Configuration", docs/DESIGN.md §8). Real files in a temporary directory; loadConfig as the program calls it.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, evaluateStaticWriteGates, knownToolNames, loadConfig, usesInventory } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'pfsense-mcp-inventory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
/** Writes `content` (JSON unless a string) to a new owner-only file and returns its path. */
function inventory(content: unknown, mode = 0o600): string {
  files += 1;
  const path = join(dir, `inventory-${files}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  chmodSync(path, mode);
  return path;
}
const fail = (env: Record<string, string | undefined>): ConfigError => {
  try {
    loadConfig(env, knownToolNames());
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
};
const fw = (name: string, port: number, extra: Record<string, unknown> = {}) => ({
  name,
  url: `https://fw-${port}.example.net:${port}`,
  api_key_file: `/etc/pfsense-mcp/${name}.key`,
  ...extra,
});

describe('PFSENSE_INVENTORY_FILE', () => {
  it('gives the appliances in file order, URLs normalized, the first one as the legacy single appliance', () => {
    const file = inventory([
      fw('hq', 8443, { url: 'HTTPS://FW-HQ.example.net:443/', ca_file: '/etc/pfsense-mcp/hq-ca.pem' }),
      fw('lab', 9000, { url: 'http://127.0.0.1:9000', allow_http_loopback: true, response_timeout_ms: 5000 }),
    ]);
    const config = loadConfig({ PFSENSE_INVENTORY_FILE: file }, knownToolNames());
    expect(config.inventoryFile).toBe(file);
    expect(config.appliances).toEqual([
      {
        name: 'hq',
        url: 'https://fw-hq.example.net',
        apiKeyFile: '/etc/pfsense-mcp/hq.key',
        caFile: '/etc/pfsense-mcp/hq-ca.pem',
        allowHttpLoopback: false,
        responseTimeoutMs: null,
      },
      {
        name: 'lab',
        url: 'http://127.0.0.1:9000',
        apiKeyFile: '/etc/pfsense-mcp/lab.key',
        caFile: null,
        allowHttpLoopback: true,
        responseTimeoutMs: 5000,
      },
    ]);
    expect(config.url).toBe('https://fw-hq.example.net');
    expect(Object.isFrozen(config.appliances)).toBe(true);
  });

  it('names every problem by appliance and field at once, never echoing a value', () => {
    const secret = 'SECRETVALUE123';
    const file = inventory([
      fw('ok', 1001),
      { name: 'Bad Name', url: 'https://a.example.net', api_key_file: '/k' },
      { name: 'nokey', url: `https://admin:${secret}@b.example.net` },
      fw('rel', 1003, { api_key_file: 'relative.key', ca_file: 'ca.pem' }),
      fw('ok', 1004),
      fw('same', 1001, { url: 'https://FW-1001.example.net:1001/' }),
      fw('plain', 1005, { url: 'http://10.0.0.1' }),
      fw('extra', 1006, { [secret]: 1, write_key_file: '/x' }),
      'not an object',
      fw('quick', 1007, { response_timeout_ms: 10 }),
    ]);
    const error = fail({ PFSENSE_INVENTORY_FILE: file });
    expect(error.code).toBe('INVENTORY_INVALID');
    expect(error.variable).toBe('PFSENSE_INVENTORY_FILE');
    const m = error.message;
    expect(m).toMatch(/^PFSENSE_INVENTORY_FILE has 11 problems: /);
    expect(m).toContain('appliance 2: name must be a short token');
    expect(m).toContain('appliance 3 (nokey): api_key_file is required');
    expect(m).toContain('appliance 3 (nokey): url must not contain credentials; use api_key_file');
    expect(m).toContain('appliance 4 (rel): api_key_file must be an absolute path');
    expect(m).toContain('appliance 4 (rel): ca_file must be an absolute path');
    expect(m).toContain('appliance 5 (ok): name is also the name of appliance 1');
    expect(m).toContain('appliance 6 (same): url is the same appliance as appliance 1 (ok)');
    expect(m).toContain('appliance 7 (plain): url must use https');
    expect(m).toContain('appliance 8 (extra): unknown field (unprintable), write_key_file');
    expect(m).toContain('appliance 9 must be an object');
    expect(m).toContain('appliance 10 (quick): response_timeout_ms must be a whole number of milliseconds from 500 to 600000');
    expect(m).not.toContain(secret);
    expect(m).not.toContain('example.net');
  });

  it('refuses the file unless it is owner-only, JSON and a non-empty list', () => {
    expect(fail({ PFSENSE_INVENTORY_FILE: inventory([fw('a', 1)], 0o644) }).code).toBe('INVENTORY_FILE_UNSAFE_MODE');
    expect(fail({ PFSENSE_INVENTORY_FILE: join(dir, 'missing.json') }).code).toBe('INVENTORY_FILE_NOT_FOUND');
    expect(fail({ PFSENSE_INVENTORY_FILE: 'inventory.json' }).code).toBe('RELATIVE_PATH');
    expect(fail({ PFSENSE_INVENTORY_FILE: inventory('{"name": ') }).code).toBe('INVENTORY_NOT_JSON');
    expect(fail({ PFSENSE_INVENTORY_FILE: inventory([]) }).code).toBe('INVENTORY_NOT_A_LIST');
    expect(fail({ PFSENSE_INVENTORY_FILE: inventory({ appliances: [] }) }).code).toBe('INVENTORY_NOT_A_LIST');
  });

  it('is an error together with the single-appliance variables, naming the fix', () => {
    const file = inventory([fw('a', 1)]);
    const error = fail({ PFSENSE_INVENTORY_FILE: file, PFSENSE_URL: 'https://fw.example.net', PFSENSE_API_KEY_FILE: '/k' });
    expect(error.code).toBe('INVENTORY_AND_SINGLE_APPLIANCE');
    expect(error.message).toContain('PFSENSE_INVENTORY_FILE and PFSENSE_URL, PFSENSE_API_KEY_FILE are both set; unset them');
    expect(fail({ PFSENSE_INVENTORY_FILE: file, PFSENSE_ALLOW_HTTP_LOOPBACK: 'true' }).variable).toBe('PFSENSE_ALLOW_HTTP_LOOPBACK');
    // Empty counts as unset, as for every variable.
    expect(loadConfig({ PFSENSE_INVENTORY_FILE: file, PFSENSE_URL: '' }, knownToolNames()).appliances).toHaveLength(1);
  });

  it('keeps writes single-appliance: under write_protected the write gate fails with INVENTORY', () => {
    const config = loadConfig(
      { PFSENSE_INVENTORY_FILE: inventory([fw('a', 1)]), PFSENSE_PROFILE: 'write_protected', PFSENSE_WRITE_DIR: '/srv/w' },
      knownToolNames(),
    );
    expect(usesInventory(config)).toBe(true);
    const gates = evaluateStaticWriteGates(
      config.profile,
      config.allowedTools,
      config.write,
      undefined,
      config.toolsets,
      !usesInventory(config),
    );
    expect(gates.granted).toBe(true);
    expect(gates.failure?.gate).toBe('runtime_enabled');
    expect(gates.failure?.code).toBe('INVENTORY');
    // The same configuration without an inventory passes this gate.
    const single = loadConfig(
      {
        PFSENSE_URL: 'https://fw.example.net',
        PFSENSE_API_KEY_FILE: '/k',
        PFSENSE_PROFILE: 'write_protected',
        PFSENSE_WRITE_DIR: '/srv/w',
      },
      knownToolNames(),
    );
    expect(
      evaluateStaticWriteGates(single.profile, single.allowedTools, single.write, undefined, single.toolsets, !usesInventory(single))
        .failure,
    ).toBeNull();
  });
});
