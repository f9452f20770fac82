import { chmodSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHttpTransport, isLoopbackHost } from '@pfsense-mcp/transports';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ConfigError,
  knownToolNames,
  loadConfig,
  parseAllowedTools,
  parseCliArgs,
  precheckCaFile,
  readApiKey,
  selectTools,
  UsageError,
} from '../src/index.js';

const known = knownToolNames();
const base = { PFSENSE_URL: 'https://fw.example.net', PFSENSE_API_KEY_FILE: '/etc/pfsense-mcp/api-key' };
const fail = (env: Record<string, string | undefined>): ConfigError => {
  try {
    loadConfig(env, known);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
};

describe('loadConfig', () => {
  it('accepts a minimal configuration and defaults to the auditor profile', () => {
    const config = loadConfig(base, known);
    expect(config).toEqual({
      // The single-appliance variables are an inventory of one, named `default`.
      appliances: [
        { name: 'default', url: 'https://fw.example.net', apiKeyFile: '/etc/pfsense-mcp/api-key', caFile: null, allowHttpLoopback: false },
      ],
      inventoryFile: null,
      url: 'https://fw.example.net',
      apiKeyFile: '/etc/pfsense-mcp/api-key',
      caFile: null,
      profile: 'auditor',
      allowedTools: null,
      toolsets: null,
      logLevel: 'info',
      allowHttpLoopback: false,
      write: {
        dir: null,
        anchorDir: null,
        apiKeyFile: null,
        exchangeDir: null,
        capabilities: ['alias_description'],
        entriesBounds: { maxPrefixV4: 8, maxPrefixV6: 32, protectedNetworks: [] },
      },
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('PFSENSE_WRITE_CAPABILITIES: the description by default, both when named; an unknown name stops start-up', () => {
    expect(loadConfig({ ...base, PFSENSE_WRITE_CAPABILITIES: 'alias_description,alias_entries' }, known).write?.capabilities).toEqual([
      'alias_description',
      'alias_entries',
    ]);
    expect(loadConfig({ ...base, PFSENSE_WRITE_CAPABILITIES: 'alias_entries' }, known).write?.capabilities).toEqual(['alias_entries']);
    expect(fail({ ...base, PFSENSE_WRITE_CAPABILITIES: 'alias_entries,firewall_rules' })).toMatchObject({
      code: 'UNKNOWN_WRITE_CAPABILITY',
      variable: 'PFSENSE_WRITE_CAPABILITIES',
    });
    expect(fail({ ...base, PFSENSE_WRITE_CAPABILITIES: 'alias_entries,alias_entries' }).variable).toBe('PFSENSE_WRITE_CAPABILITIES');
  });

  it('the entries bounds may only narrow /8 and /32; protected networks are literal addresses or CIDRs', () => {
    const bounds = loadConfig(
      {
        ...base,
        PFSENSE_WRITE_MAX_PREFIX_V4: '16',
        PFSENSE_WRITE_MAX_PREFIX_V6: '48',
        PFSENSE_WRITE_PROTECTED_NETWORKS: '10.10.20.0/24, 2001:db8::/32',
      },
      known,
    ).write?.entriesBounds;
    expect(bounds).toEqual({ maxPrefixV4: 16, maxPrefixV6: 48, protectedNetworks: ['10.10.20.0/24', '2001:db8::/32'] });
    expect(fail({ ...base, PFSENSE_WRITE_MAX_PREFIX_V4: '4' }).variable).toBe('PFSENSE_WRITE_MAX_PREFIX_V4');
    expect(fail({ ...base, PFSENSE_WRITE_MAX_PREFIX_V6: '16' }).variable).toBe('PFSENSE_WRITE_MAX_PREFIX_V6');
    expect(fail({ ...base, PFSENSE_WRITE_PROTECTED_NETWORKS: 'mgmt.example' }).variable).toBe('PFSENSE_WRITE_PROTECTED_NETWORKS');
  });

  it('fails closed on each bad variable, naming the variable and never echoing the value', () => {
    const secret = 'SECRETVALUE123';
    const cases: [Record<string, string | undefined>, string, string][] = [
      [{ ...base, PFSENSE_URL: undefined }, 'PFSENSE_URL', 'INVALID_VALUE'],
      [{ ...base, PFSENSE_API_KEY_FILE: undefined }, 'PFSENSE_API_KEY_FILE', 'INVALID_VALUE'],
      [{ ...base, PFSENSE_URL: `not a url ${secret}` }, 'PFSENSE_URL', 'INVALID_URL'],
      [{ ...base, PFSENSE_URL: `https://admin:${secret}@fw.example.net` }, 'PFSENSE_URL', 'URL_CREDENTIALS'],
      [{ ...base, PFSENSE_URL: `https://fw.example.net/?key=${secret}` }, 'PFSENSE_URL', 'URL_NOT_ORIGIN'],
      [{ ...base, PFSENSE_URL: 'http://fw.example.net' }, 'PFSENSE_URL', 'HTTP_NOT_LOOPBACK'],
      [{ ...base, PFSENSE_URL: 'http://127.0.0.1:8080' }, 'PFSENSE_URL', 'HTTP_NOT_ALLOWED'],
      [{ ...base, PFSENSE_URL: 'ftp://fw.example.net' }, 'PFSENSE_URL', 'URL_SCHEME'],
      [{ ...base, PFSENSE_API_KEY_FILE: 'relative/key' }, 'PFSENSE_API_KEY_FILE', 'RELATIVE_PATH'],
      [{ ...base, PFSENSE_CA_FILE: 'ca.pem' }, 'PFSENSE_CA_FILE', 'RELATIVE_PATH'],
      [{ ...base, PFSENSE_PROFILE: secret }, 'PFSENSE_PROFILE', 'UNKNOWN_PROFILE'],
      [{ ...base, PFSENSE_PROFILE: 'Auditor' }, 'PFSENSE_PROFILE', 'UNKNOWN_PROFILE'],
      [{ ...base, PFSENSE_LOG_LEVEL: 'verbose' }, 'PFSENSE_LOG_LEVEL', 'INVALID_VALUE'],
      [{ ...base, PFSENSE_ALLOW_HTTP_LOOPBACK: 'maybe' }, 'PFSENSE_ALLOW_HTTP_LOOPBACK', 'INVALID_VALUE'],
      // Exactly true or false, everywhere.
      [{ ...base, PFSENSE_ALLOW_HTTP_LOOPBACK: '1' }, 'PFSENSE_ALLOW_HTTP_LOOPBACK', 'INVALID_VALUE'],
      [{ ...base, PFSENSE_ALLOW_HTTP_LOOPBACK: 'yes' }, 'PFSENSE_ALLOW_HTTP_LOOPBACK', 'INVALID_VALUE'],
      [{ ...base, PFSENSE_ALLOW_HTTP_LOOPBACK: 'TRUE' }, 'PFSENSE_ALLOW_HTTP_LOOPBACK', 'INVALID_VALUE'],
      [{ ...base, PFSENSE_URL: `https://${'a'.repeat(5000)}` }, 'PFSENSE_URL', 'INVALID_VALUE'],
    ];
    for (const [env, variable, code] of cases) {
      const error = fail(env);
      expect([error.variable, error.code], JSON.stringify(env).slice(0, 120)).toEqual([variable, code]);
      expect(error.message).toContain(variable);
      expect(error.message).not.toContain(secret);
    }
  });

  it('allows plain http only to loopback with the explicit flag', () => {
    expect(loadConfig({ ...base, PFSENSE_URL: 'http://127.0.0.1:8080', PFSENSE_ALLOW_HTTP_LOOPBACK: 'true' }, known).url).toBe(
      'http://127.0.0.1:8080',
    );
    expect(fail({ ...base, PFSENSE_URL: 'http://10.0.0.1', PFSENSE_ALLOW_HTTP_LOOPBACK: 'true' }).code).toBe('HTTP_NOT_LOOPBACK');
  });

  it('agrees with the transport on what a loopback host is (config accepts exactly what the transport accepts)', () => {
    const hosts = [
      '127.0.0.1',
      '127.0.0.2',
      '127.255.255.254',
      'localhost',
      'LOCALHOST',
      '[::1]',
      '[0:0:0:0:0:0:0:1]',
      '128.0.0.1',
      '10.0.0.1',
      '[::2]',
      'localhost.example.net',
      '127.0.0.1.nip.io',
      '0.0.0.0',
      '2130706433',
    ];
    let accepted = 0;
    for (const host of hosts) {
      const url = `http://${host}:8080`;
      const transportSays = isLoopbackHost(new URL(url).hostname);
      let transportBuilds = true;
      try {
        createHttpTransport({ baseUrl: url, authHeader: { name: 'X-API-Key', value: 'k'.repeat(32) }, allowHttpLoopback: true }).close();
      } catch {
        transportBuilds = false;
      }
      let configAccepts = true;
      try {
        loadConfig({ ...base, PFSENSE_URL: url, PFSENSE_ALLOW_HTTP_LOOPBACK: 'true' }, known);
      } catch (error) {
        expect((error as ConfigError).code, host).toBe('HTTP_NOT_LOOPBACK');
        configAccepts = false;
      }
      expect([configAccepts, transportBuilds], host).toEqual([transportSays, transportSays]);
      if (configAccepts) accepted += 1;
    }
    // Both outcomes occur, so the comparison above can fail either way.
    expect(accepted).toBeGreaterThan(3);
    expect(accepted).toBeLessThan(hosts.length);
  });

  it('takes the appliance origin only: a path prefix (pfREST behind a reverse-proxy path) is refused', () => {
    for (const url of ['https://fw.example.net/pfsense', 'https://fw.example.net/api/v2', 'https://fw.example.net:8443/x/']) {
      expect(fail({ ...base, PFSENSE_URL: url }).code, url).toBe('URL_NOT_ORIGIN');
    }
    expect(loadConfig({ ...base, PFSENSE_URL: 'https://fw.example.net:8443/' }, known).url).toBe('https://fw.example.net:8443');
  });
});

describe('PFSENSE_ALLOWED_TOOLS', () => {
  it('unset keeps the profile; empty registers zero tools; a list narrows to exactly the intersection', () => {
    expect(parseAllowedTools(undefined, known)).toBeNull();
    expect(selectTools('auditor', parseAllowedTools('', known)).names.size).toBe(0);
    expect(selectTools('auditor', parseAllowedTools('  ', known)).names.size).toBe(0);
    const two = parseAllowedTools('pfsense_get_firewall_aliases, pfsense_mcp_info', known);
    expect([...selectTools('auditor', two).names].sort()).toEqual(['pfsense_get_firewall_aliases', 'pfsense_mcp_info']);
  });

  it('never adds a tool the profile does not grant', () => {
    expect(selectTools('engineer', parseAllowedTools('pfsense_get_firewall_aliases', known)).names.size).toBe(0);
  });

  it('refuses unknown names, wildcards and empty elements at startup', () => {
    const cases: [string, string][] = [
      ['pfsense_get_firewall_aliases,,pfsense_mcp_info', 'ALLOWED_TOOLS_EMPTY_ELEMENT'],
      ['pfsense_get_firewall_aliases,', 'ALLOWED_TOOLS_EMPTY_ELEMENT'],
      ['pfsense_get_*', 'ALLOWED_TOOLS_WILDCARD'],
      ['*', 'ALLOWED_TOOLS_WILDCARD'],
      ['pfsense_get_firewall_aliasez', 'ALLOWED_TOOLS_UNKNOWN'],
      ['PFSENSE_GET_FIREWALL_ALIASES', 'ALLOWED_TOOLS_UNKNOWN'],
    ];
    for (const [value, code] of cases) {
      expect(fail({ ...base, PFSENSE_ALLOWED_TOOLS: value }).code, value).toBe(code);
    }
    expect(fail({ ...base, PFSENSE_ALLOWED_TOOLS: 'pfsense_get_firewall_aliasez' }).message).toContain('"pfsense_get_firewall_aliasez"');
    expect(fail({ ...base, PFSENSE_ALLOWED_TOOLS: 'sk-LIVE secret!' }).message).not.toContain('secret');
    // A near miss names the tool meant; stray text gets no suggestion.
    expect(fail({ ...base, PFSENSE_ALLOWED_TOOLS: 'pfsense_get_firewall_aliasez' }).message).toContain(
      '(did you mean pfsense_get_firewall_aliases?)',
    );
    expect(fail({ ...base, PFSENSE_ALLOWED_TOOLS: 'pfsense_mcp_inf' }).message).toContain('(did you mean pfsense_mcp_info?)');
    expect(fail({ ...base, PFSENSE_ALLOWED_TOOLS: 'completely_unrelated' }).message).not.toContain('did you mean');
  });

  it('names every missing required variable at once', () => {
    const both = fail({ PFSENSE_PROFILE: 'auditor' });
    expect(both.message).toBe('PFSENSE_URL and PFSENSE_API_KEY_FILE are required');
    expect(fail({ ...base, PFSENSE_URL: undefined }).message).toBe('PFSENSE_URL is required');
  });
});

describe('parseCliArgs', () => {
  it('knows exactly its options', () => {
    expect(parseCliArgs([])).toBe('serve');
    expect(parseCliArgs(['--help'])).toBe('help');
    expect(parseCliArgs(['--version'])).toBe('version');
    expect(parseCliArgs(['--check-config'])).toBe('check-config');
    expect(parseCliArgs(['--demo'])).toBe('demo');
    expect(() => parseCliArgs(['--url=https://x'])).toThrow(UsageError);
    expect(() => parseCliArgs(['--demo', '--help'])).toThrow(UsageError);
  });
});

describe('readApiKey (owner-only key file)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-key-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, text: string, mode: number) => {
    const path = join(dir, name);
    writeFileSync(path, text, { mode });
    chmodSync(path, mode);
    return path;
  };

  it('reads a 0600 or 0400 file', () => {
    expect(readApiKey(write('ok600', 'key-0123456789abcdef\n', 0o600))).toBe('key-0123456789abcdef');
    expect(readApiKey(write('ok400', 'key-0123456789abcdef', 0o400))).toBe('key-0123456789abcdef');
  });

  it('refuses 0644, 0640, a symlink, a directory and a missing file without echoing the key', () => {
    const cases: [string, string][] = [
      [write('wide', 'SECRETKEY-0123456789\n', 0o644), 'API_KEY_FILE_UNSAFE_MODE'],
      [write('group', 'SECRETKEY-0123456789\n', 0o640), 'API_KEY_FILE_UNSAFE_MODE'],
      [join(dir, 'missing'), 'API_KEY_FILE_NOT_FOUND'],
    ];
    const target = write('target', 'SECRETKEY-0123456789\n', 0o600);
    symlinkSync(target, join(dir, 'link'));
    cases.push([join(dir, 'link'), 'API_KEY_FILE_SYMLINK']);
    cases.push([dir, 'API_KEY_FILE_NOT_REGULAR_FILE']);
    for (const [path, code] of cases) {
      let error: unknown;
      try {
        readApiKey(path);
      } catch (e) {
        error = e;
      }
      expect(error, path).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).code, path).toBe(code);
      expect((error as ConfigError).variable).toBe('PFSENSE_API_KEY_FILE');
      expect((error as ConfigError).message).not.toContain('SECRETKEY');
    }
  });
});

describe('precheckCaFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-ca-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it('accepts a PEM file and refuses a missing, non-PEM or non-regular one before serving', () => {
    const pem = join(dir, 'ca.pem');
    writeFileSync(pem, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    expect(() => precheckCaFile(pem)).not.toThrow();
    const junk = join(dir, 'junk');
    writeFileSync(junk, 'not a certificate');
    const codes = [join(dir, 'missing'), junk, dir].map((p) => {
      try {
        precheckCaFile(p);
        return 'accepted';
      } catch (e) {
        return (e as ConfigError).code;
      }
    });
    expect(codes).toEqual(['CA_FILE_UNREADABLE', 'CA_FILE_INVALID', 'CA_FILE_UNREADABLE']);
  });
});
