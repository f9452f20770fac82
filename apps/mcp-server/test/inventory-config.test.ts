// PFSENSE_INVENTORY_FILE: an owner-only JSON list of appliances, validated as a whole at start (README
// "Configuration", docs/DESIGN.md §8). Real files in a temporary directory; loadConfig as the program calls it.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ConfigError,
  checkWriteRuntime,
  evaluateStaticWriteGates,
  knownToolNames,
  loadConfig,
  usesInventory,
  WriteGateError,
} from '../src/index.js';
import { writeAppliancesOf } from '../src/runtime/config/write-config-of.js';
import { inWriteSettingNames } from '../src/runtime/config/write-setting-names.js';

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
        write: null,
      },
      {
        name: 'lab',
        url: 'http://127.0.0.1:9000',
        apiKeyFile: '/etc/pfsense-mcp/lab.key',
        caFile: null,
        allowHttpLoopback: true,
        responseTimeoutMs: 5000,
        write: null,
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

  it('opens writes per appliance: each entry with write_dir as if served alone, never the whole inventory', () => {
    const config = loadConfig(
      { PFSENSE_INVENTORY_FILE: inventory([fw('a', 1, { write_dir: '/srv/w' }), fw('b', 2)]), PFSENSE_PROFILE: 'write_protected' },
      knownToolNames(),
    );
    expect(usesInventory(config)).toBe(true);
    // The whole inventory's own write settings are empty (the variables are refused with it): nothing to open.
    expect(config.write?.dir).toBeNull();
    // What the server opens: each appliance with write_dir, configured as if it were served alone, named.
    const writers = writeAppliancesOf(config);
    expect(writers.map((w) => w.name)).toEqual(['a']);
    const own = writers[0];
    expect(own?.config.write?.dir).toBe('/srv/w');
    expect(own?.config.write?.appliance).toBe('a');
    expect(usesInventory(own!.config)).toBe(false);
    expect(own?.config.appliances?.map((a) => a.name)).toEqual(['a']);
    expect(
      evaluateStaticWriteGates(own!.config.profile, own!.config.allowedTools, own!.config.write, undefined, own!.config.toolsets).failure,
    ).toBeNull();
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
    expect(evaluateStaticWriteGates(single.profile, single.allowedTools, single.write, undefined, single.toolsets).failure).toBeNull();
  });

  it("names an inventory appliance's write settings by its fields in the write runtime's refusals, never PFSENSE_WRITE_*", async () => {
    const missing = join(dir, 'no-such-write-dir');
    const config = loadConfig(
      { PFSENSE_INVENTORY_FILE: inventory([fw('a', 1, { write_dir: missing })]), PFSENSE_PROFILE: 'write_protected' },
      knownToolNames(),
    );
    const refusal = async (c: Parameters<typeof checkWriteRuntime>[0]): Promise<WriteGateError> => {
      try {
        await checkWriteRuntime(c);
      } catch (error) {
        if (error instanceof WriteGateError) return error;
        throw error;
      }
      throw new Error('expected a WriteGateError');
    };
    const own = await refusal(writeAppliancesOf(config)[0]!.config);
    expect(own.rule).toMatch(/^write_dir of appliance a /);
    expect(own.rule).not.toContain('PFSENSE_WRITE');
    // The same directory given by the variable: the same code, the rule names the variable.
    const single = loadConfig(
      { PFSENSE_URL: 'https://fw.example.net', PFSENSE_API_KEY_FILE: '/k', PFSENSE_PROFILE: 'write_protected', PFSENSE_WRITE_DIR: missing },
      knownToolNames(),
    );
    const variable = await refusal(single);
    expect(variable.code).toBe(own.code);
    expect(variable.rule).toMatch(/^PFSENSE_WRITE_DIR /);
    // Paths inside a directory and the admin command that fixes it are said the same way (one owner of the names).
    const rule = 'PFSENSE_WRITE_EXCHANGE_DIR/requests does not exist (create it with `pfsense-mcp admin init --dir DIR --exchange PATH`)';
    expect(inWriteSettingNames(rule, { dir: '/w', anchorDir: null, apiKeyFile: null, appliance: 'b' })).toBe(
      'write_exchange_dir/requests of appliance b does not exist (create it with `pfsense-mcp admin init --appliance b`)',
    );
    expect(inWriteSettingNames(rule, { dir: '/w', anchorDir: null, apiKeyFile: null })).toBe(rule);
  });

  it("reads each entry's write fields: write_dir gives the appliance its own write settings, defaults filled in", () => {
    const file = inventory([
      fw('a', 1, {
        write_dir: '/srv/pfsense-mcp/a',
        write_anchor_dir: '/var/lib/anchor/a',
        write_exchange_dir: '/srv/exchange/a',
        write_api_key_file: '/etc/pfsense-mcp/a-write.key',
        write_capabilities: ['alias_description', 'alias_entries'],
        write_protected_networks: ['10.0.0.0/8', '2001:db8::1'],
        write_max_prefix_v4: 24,
        write_max_prefix_v6: 128,
      }),
      fw('b', 2, { write_dir: '/srv/pfsense-mcp/b' }),
      fw('c', 3),
    ]);
    const [a, b, c] = loadConfig({ PFSENSE_INVENTORY_FILE: file }, knownToolNames()).appliances ?? [];
    expect(a?.write).toEqual({
      dir: '/srv/pfsense-mcp/a',
      anchorDir: '/var/lib/anchor/a',
      exchangeDir: '/srv/exchange/a',
      apiKeyFile: '/etc/pfsense-mcp/a-write.key',
      capabilities: ['alias_description', 'alias_entries'],
      entriesBounds: { maxPrefixV4: 24, maxPrefixV6: 128, protectedNetworks: ['10.0.0.0/8', '2001:db8::1'] },
    });
    expect(b?.write).toEqual({
      dir: '/srv/pfsense-mcp/b',
      anchorDir: null,
      exchangeDir: null,
      apiKeyFile: null,
      capabilities: ['alias_description'],
      entriesBounds: { maxPrefixV4: 8, maxPrefixV6: 32, protectedNetworks: [] },
    });
    expect(c?.write).toBeNull();
    expect(Object.isFrozen(a?.write)).toBe(true);
    // The runtime of a is built with a's bounds, b's with the defaults (writeConfigOf passes them through).
    const config = loadConfig({ PFSENSE_INVENTORY_FILE: file, PFSENSE_PROFILE: 'write_protected' }, knownToolNames());
    expect(
      writeAppliancesOf(config).map((w) => [
        w.name,
        w.config.write?.entriesBounds?.maxPrefixV4,
        w.config.write?.entriesBounds?.maxPrefixV6,
      ]),
    ).toEqual([
      ['a', 24, 128],
      ['b', 8, 32],
    ]);
  });

  it('bounds write_max_prefix_v4/_v6 as PFSENSE_WRITE_MAX_PREFIX_V4/_V6 are bounded: only narrower, within the family', () => {
    const m = fail({
      PFSENSE_INVENTORY_FILE: inventory([
        fw('wide', 1, { write_dir: '/w1', write_max_prefix_v4: 7, write_max_prefix_v6: 31 }),
        fw('long', 2, { write_dir: '/w2', write_max_prefix_v4: 33, write_max_prefix_v6: 129 }),
        fw('typed', 3, { write_dir: '/w3', write_max_prefix_v4: '24', write_max_prefix_v6: 64.5 }),
        fw('nodir', 4, { write_max_prefix_v4: 24 }),
      ]),
    }).message;
    const v4 = 'write_max_prefix_v4 must be a prefix length from 8 to 32 (it may only narrow /8)';
    const v6 = 'write_max_prefix_v6 must be a prefix length from 32 to 128 (it may only narrow /32)';
    for (const label of ['appliance 1 (wide)', 'appliance 2 (long)', 'appliance 3 (typed)']) {
      expect(m).toContain(`${label}: ${v4}`);
      expect(m).toContain(`${label}: ${v6}`);
    }
    expect(m).toContain('appliance 4 (nodir): write_max_prefix_v4 needs write_dir');
    expect(m).toContain('has 7 problems');
    // The variable says the same rule (one owner of the bounds).
    const single = fail({ PFSENSE_URL: 'https://fw.example.net', PFSENSE_API_KEY_FILE: '/k', PFSENSE_WRITE_MAX_PREFIX_V4: '7' });
    expect(single.message).toBe(`PFSENSE_WRITE_MAX_PREFIX_V4 ${v4.slice('write_max_prefix_v4 '.length)}`);
    // The edges are allowed.
    const edges = inventory([fw('e', 1, { write_dir: '/w', write_max_prefix_v4: 8, write_max_prefix_v6: 32 })]);
    expect(loadConfig({ PFSENSE_INVENTORY_FILE: edges }, knownToolNames()).appliances?.[0]?.write?.entriesBounds).toEqual({
      maxPrefixV4: 8,
      maxPrefixV6: 32,
      protectedNetworks: [],
    });
  });

  it('names every write-field problem by appliance and field, never echoing a value', () => {
    const secret = 'SECRETNET999';
    const file = inventory([
      fw('rel', 1, { write_dir: 'relative/dir', write_api_key_file: 'k' }),
      fw('nodir', 2, { write_anchor_dir: '/a2', write_capabilities: ['alias_entries'] }),
      fw('caps', 3, { write_dir: '/w3', write_capabilities: ['alias_everything'] }),
      fw('twice', 4, { write_dir: '/w4', write_capabilities: ['alias_entries', 'alias_entries'] }),
      fw('nets', 5, { write_dir: '/w5', write_protected_networks: [`${secret}/8`] }),
      fw('typed', 6, { write_dir: 7, write_capabilities: [] }),
    ]);
    const m = fail({ PFSENSE_INVENTORY_FILE: file }).message;
    expect(m).toContain('appliance 1 (rel): write_dir must be an absolute path');
    expect(m).toContain('appliance 1 (rel): write_api_key_file must be an absolute path');
    expect(m).toContain('appliance 2 (nodir): write_anchor_dir, write_capabilities need write_dir');
    expect(m).toContain(
      'appliance 3 (caps): write_capabilities must be a non-empty list of write capability names (known: alias_description, alias_entries)',
    );
    expect(m).toContain('appliance 4 (twice): write_capabilities names a capability twice');
    expect(m).toContain('appliance 5 (nets): write_protected_networks must be a list of at most 256 IPv4/IPv6 addresses or CIDRs');
    expect(m).toContain('appliance 6 (typed): write_dir must be an absolute path (a string)');
    expect(m).toContain('appliance 6 (typed): write_capabilities must be a non-empty list');
    expect(m).toContain('has 8 problems');
    expect(m).not.toContain(secret);
  });

  it('refuses write directories shared by two entries or nested within one, the same or one inside the other; key files may be shared', () => {
    const key = { write_api_key_file: '/etc/pfsense-mcp/write.key' };
    const m = fail({
      PFSENSE_INVENTORY_FILE: inventory([
        fw('a', 1, { write_dir: '/srv/w/a', write_exchange_dir: '/srv/x', ...key }),
        fw('b', 2, { write_dir: '/srv/w/a/', ...key }),
        fw('c', 3, { write_dir: '/srv/w/c', write_anchor_dir: '/srv/x/c' }),
        fw('d', 4, { write_dir: '/srv/w' }),
      ]),
    }).message;
    expect(m).toContain("appliance 2 (b): write_dir is or shares a directory with appliance 1 (a)'s write_dir");
    expect(m).toContain("appliance 3 (c): write_anchor_dir is or shares a directory with appliance 1 (a)'s write_exchange_dir");
    expect(m).toContain("appliance 4 (d): write_dir is or shares a directory with appliance 1 (a)'s write_dir");
    expect(m).toContain('has 3 problems');
    // Within one entry too: its exchange folder or anchor directory inside its write_dir, or holding it.
    const own = fail({
      PFSENSE_INVENTORY_FILE: inventory([
        fw('x', 1, { write_dir: '/srv/x', write_exchange_dir: '/srv/x/exchange' }),
        fw('y', 2, { write_dir: '/srv/y/w', write_anchor_dir: '/srv/y' }),
        fw('z', 3, { write_dir: '/srv/z', write_anchor_dir: '/srv/za', write_exchange_dir: '/srv/za/x' }),
        fw('ok', 4, { write_dir: '/srv/ok/w', write_anchor_dir: '/srv/ok/a', write_exchange_dir: '/srv/ok/x' }),
      ]),
    }).message;
    expect(own).toContain('appliance 1 (x): write_exchange_dir is or shares a directory with its write_dir');
    expect(own).toContain('appliance 2 (y): write_anchor_dir is or shares a directory with its write_dir');
    expect(own).toContain('appliance 3 (z): write_exchange_dir is or shares a directory with its write_anchor_dir');
    expect(own).toContain('has 3 problems');
    // Distinct directories, one shared key file: accepted.
    const ok = inventory([fw('a', 1, { write_dir: '/srv/w/a', ...key }), fw('b', 2, { write_dir: '/srv/w/ab', ...key })]);
    expect(loadConfig({ PFSENSE_INVENTORY_FILE: ok }, knownToolNames()).appliances?.map((x) => x.write?.dir)).toEqual([
      '/srv/w/a',
      '/srv/w/ab',
    ]);
  });

  it('refuses the single-appliance PFSENSE_WRITE_* variables with an inventory, naming the inventory field', () => {
    const file = inventory([fw('a', 1)]);
    const cases: [string, string][] = [
      ['PFSENSE_WRITE_DIR', '"write_dir"'],
      ['PFSENSE_WRITE_ANCHOR_DIR', '"write_anchor_dir"'],
      ['PFSENSE_WRITE_EXCHANGE_DIR', '"write_exchange_dir"'],
      ['PFSENSE_WRITE_API_KEY_FILE', '"write_api_key_file"'],
      ['PFSENSE_WRITE_CAPABILITIES', '"write_capabilities"'],
      ['PFSENSE_WRITE_PROTECTED_NETWORKS', '"write_protected_networks"'],
      ['PFSENSE_WRITE_MAX_PREFIX_V4', '"write_max_prefix_v4"'],
      ['PFSENSE_WRITE_MAX_PREFIX_V6', '"write_max_prefix_v6"'],
    ];
    for (const [variable, fix] of cases) {
      const error = fail({ PFSENSE_INVENTORY_FILE: file, [variable]: '/srv/w' });
      expect(error.code).toBe('INVENTORY_AND_SINGLE_APPLIANCE');
      expect(error.variable).toBe(variable);
      expect(error.message).toContain(`PFSENSE_INVENTORY_FILE and ${variable} are both set`);
      expect(error.message).toContain(fix);
      expect(error.message).not.toContain('/srv/w');
    }
    // Empty counts as unset.
    expect(loadConfig({ PFSENSE_INVENTORY_FILE: file, PFSENSE_WRITE_DIR: '' }, knownToolNames()).appliances).toHaveLength(1);
  });
});
