// PFSENSE_TOOLSETS: a closed grouping of the catalogue (every tool but pfsense_mcp_info in exactly one set),
// narrowing like PFSENSE_ALLOWED_TOOLS (both: the intersection), unknown names refusing to start.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { READ_CATALOGUE } from '@pfsense-mcp/pfsense-read';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  INFO_TOOL_NAME,
  LIST_APPLIANCES_TOOL_NAME,
  KNOWN_TOOL_NAMES,
  TOOLSETS,
  TOOLSET_NAMES,
  loadConfig,
  parseToolsets,
  selectTools,
  toolsetOf,
} from '../src/index.js';
import { HELP_TEXT } from '../src/runtime/startup/help-text.js';
import { ensureBuilt, INITIALIZE, runBuilt } from './support/built-server.js';
import { errorOf, startHarness } from './support/in-process-server.js';

const base = { PFSENSE_URL: 'https://fw.example.net', PFSENSE_API_KEY_FILE: '/etc/pfsense-mcp/api-key' };

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('the toolset table', () => {
  it('is closed: unique names, and every known tool but pfsense_mcp_info and pfsense_list_appliances in exactly one set', () => {
    expect(new Set(TOOLSET_NAMES).size).toBe(TOOLSET_NAMES.length);
    const members = TOOLSETS.flatMap((s) => s.tools);
    expect(new Set(members).size, 'no tool in two sets').toBe(members.length);
    // pfsense_mcp_info and pfsense_list_appliances (the server's own facts) are in no set.
    expect([...members].sort()).toEqual(
      [...KNOWN_TOOL_NAMES].filter((n) => n !== INFO_TOOL_NAME && n !== LIST_APPLIANCES_TOOL_NAME).sort(),
    );
    expect(toolsetOf(INFO_TOOL_NAME)).toBeNull();
    for (const tool of READ_CATALOGUE) expect(TOOLSET_NAMES, tool.name).toContain(toolsetOf(tool.name));
    for (const set of TOOLSETS) {
      expect(set.tools.length, set.name).toBeGreaterThan(0);
      expect(set.description.length, set.name).toBeGreaterThan(10);
      expect(Object.isFrozen(set) && Object.isFrozen(set.tools)).toBe(true);
    }
    expect(Object.isFrozen(TOOLSETS)).toBe(true);
  });

  it('holds the toolsets the documentation names, with the firewall questions answerable from firewall, nat and diagnostics', () => {
    expect(TOOLSET_NAMES).toEqual(
      expect.arrayContaining(['firewall', 'nat', 'routing', 'interfaces', 'vpn', 'services', 'system', 'diagnostics', 'status']),
    );
    expect(toolsetOf('pfsense_get_firewall_rules')).toBe('firewall');
    expect(toolsetOf('pfsense_get_firewall_aliases')).toBe('firewall');
    expect(toolsetOf('pfsense_get_firewall_states')).toBe('firewall');
    expect(toolsetOf('pfsense_get_firewall_nat_port_forwards')).toBe('nat');
    expect(toolsetOf('pfsense_get_diagnostics_tables')).toBe('diagnostics');
  });

  it('puts every write tool in firewall', () => {
    // A write tool is one that is not a pfsense_get_ reader (pfsense_get_write_operations belongs to the write too).
    const writes = [...KNOWN_TOOL_NAMES].filter(
      (n) =>
        n !== INFO_TOOL_NAME && n !== LIST_APPLIANCES_TOOL_NAME && (!n.startsWith('pfsense_get_') || n === 'pfsense_get_write_operations'),
    );
    for (const name of writes) expect(toolsetOf(name), name).toBe('firewall');
  });
});

describe('the documentation of the toolsets', () => {
  it('--help names every toolset, and the README table lists each with its tool count and description', () => {
    const help = HELP_TEXT.replace(/\s+/g, ' ');
    for (const name of TOOLSET_NAMES) expect(help).toContain(name);
    const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');
    const rows = [...readme.matchAll(/^\| `([a-z_]+)` \| (\d+) \| (.+) \|$/gm)].map((m) => [m[1], Number(m[2]), m[3]]);
    expect(rows).toEqual(TOOLSETS.map((set) => [set.name, set.tools.length, set.description]));
  });
});

describe('parseToolsets / PFSENSE_TOOLSETS', () => {
  it('unset keeps every toolset; a value selects exactly the named sets (spaces trimmed, repeats fine); empty selects none', () => {
    expect(parseToolsets(undefined)).toBeNull();
    expect(parseToolsets(' firewall , nat,firewall')).toEqual(new Set(['firewall', 'nat']));
    expect(parseToolsets('')).toEqual(new Set());
    expect(parseToolsets('  ')).toEqual(new Set());
    expect(loadConfig({ ...base, PFSENSE_TOOLSETS: 'vpn' }, KNOWN_TOOL_NAMES).toolsets).toEqual(new Set(['vpn']));
    expect(loadConfig(base, KNOWN_TOOL_NAMES).toolsets).toBeNull();
  });

  it.each([
    ['an unknown name', 'firewall,firewal', 'TOOLSETS_UNKNOWN', '"firewal" is not a toolset'],
    ['a tool name instead of a set', 'pfsense_get_firewall_rules', 'TOOLSETS_UNKNOWN', 'is not a toolset'],
    ['a wildcard', 'fire*', 'TOOLSETS_WILDCARD', 'element 1 is a wildcard'],
    ['an empty element', 'firewall,,nat', 'TOOLSETS_EMPTY_ELEMENT', 'element 2 is empty'],
    ['different case', 'Firewall', 'TOOLSETS_UNKNOWN', 'element 1 is not a toolset'],
  ])('refuses %s at startup', (_why, value, code, message) => {
    const error = configError(() => loadConfig({ ...base, PFSENSE_TOOLSETS: value }, KNOWN_TOOL_NAMES));
    expect([error.code, error.variable]).toEqual([code, 'PFSENSE_TOOLSETS']);
    expect(error.message).toContain(message);
  });

  it('never echoes a value that does not look like a toolset name', () => {
    const error = configError(() => parseToolsets('firewall,SECRET-VALUE-123'));
    expect(error.message).not.toContain('SECRET');
    expect(error.message).toContain('element 2');
  });
});

describe('selection', () => {
  const names = (sets: string[] | null, allowed: string[] | null = null) =>
    [
      ...selectTools('auditor', allowed === null ? null : new Set(allowed), READ_CATALOGUE, sets === null ? null : new Set(sets)).names,
    ].sort();

  it('registers the tools of the selected sets plus pfsense_mcp_info', () => {
    const reads = new Set(READ_CATALOGUE.map((t) => t.name));
    const expected = [
      ...TOOLSETS.filter((s) => s.name === 'firewall' || s.name === 'nat').flatMap((s) => s.tools.filter((n) => reads.has(n))),
      INFO_TOOL_NAME,
    ].sort();
    expect(names(['firewall', 'nat'])).toEqual(expected);
    expect(names([])).toEqual([INFO_TOOL_NAME]);
    expect(names(null)).toHaveLength(95);
  });

  it('with PFSENSE_ALLOWED_TOOLS too: the intersection (pfsense_mcp_info stays the allow-list’s to decide)', () => {
    expect(names(['firewall'], ['pfsense_get_firewall_rules', 'pfsense_get_users', INFO_TOOL_NAME])).toEqual([
      'pfsense_get_firewall_rules',
      INFO_TOOL_NAME,
    ]);
    expect(names(['users'], ['pfsense_get_firewall_rules'])).toEqual([]);
  });

  it('an engineer profile still gets nothing, whatever the toolsets', () => {
    expect([...selectTools('engineer', null, READ_CATALOGUE, new Set(TOOLSET_NAMES)).names]).toEqual([]);
  });
});

describe('over MCP', () => {
  it('lists only the selected toolsets, refuses the others as UNKNOWN_TOOL, and pfsense_mcp_info describes every set', async () => {
    const h = await startHarness({ toolsets: new Set(['firewall', 'diagnostics']) });
    try {
      const { tools } = await h.client.listTools();
      const reads = new Set(READ_CATALOGUE.map((t) => t.name));
      const wanted = TOOLSETS.filter((s) => s.name === 'firewall' || s.name === 'diagnostics').flatMap((s) =>
        s.tools.filter((n) => reads.has(n)),
      );
      expect(tools.map((t) => t.name).sort()).toEqual([...wanted, INFO_TOOL_NAME].sort());
      const refused = await h.client.callTool({ name: 'pfsense_get_users', arguments: {} });
      expect(errorOf(refused).code).toBe('UNKNOWN_TOOL');
      const info = await h.client.callTool({ name: INFO_TOOL_NAME, arguments: {} });
      const content = info.structuredContent as {
        read_tool_count: number;
        toolsets: { name: string; description: string; selected: boolean; tools: string[] }[];
      };
      expect(content.read_tool_count).toBe(wanted.length + 1);
      expect(content.toolsets.map((t) => t.name)).toEqual(TOOLSET_NAMES);
      expect(content.toolsets.filter((t) => t.selected).map((t) => t.name)).toEqual(['firewall', 'diagnostics']);
      expect(content.toolsets.find((t) => t.name === 'users')?.tools).toContain('pfsense_get_users');
    } finally {
      await h.close();
    }
  });
});

describe('the built server', () => {
  it('refuses to start on an unknown toolset: one line naming the variable, exit 1, nothing on stdout', async () => {
    ensureBuilt();
    const run = await runBuilt(
      { PFSENSE_URL: 'https://127.0.0.1', PFSENSE_API_KEY_FILE: '/nonexistent/api-key', PFSENSE_TOOLSETS: 'firewall,bogus' },
      [],
      [INITIALIZE],
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('PFSENSE_TOOLSETS: "bogus" is not a toolset');
    expect(run.stderr).toContain('"code":"TOOLSETS_UNKNOWN"');
  }, 120_000);
});
