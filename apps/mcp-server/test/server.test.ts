import { READ_CATALOGUE } from '@pfsense-mcp/pfsense-read';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INFO_TOOL_NAME, SERVER_VERSION } from '../src/index.js';
import { ERAS } from './support/clients.js';
import { errorOf, startHarness, type Harness } from './support/in-process-server.js';

describe.each(ERAS)('MCP server over the in-process simulator (auditor, %s era)', (era) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ era });
  });
  afterAll(async () => {
    await h.close();
  });

  it('lists every READ tool of the catalogue plus pfsense_mcp_info, with read-only annotations and both schemas', async () => {
    const { tools } = await h.client.listTools();
    expect(tools).toHaveLength(READ_CATALOGUE.length + 1);
    expect(tools).toHaveLength(95);
    expect(new Set(tools.map((t) => t.name))).toEqual(new Set([...READ_CATALOGUE.map((t) => t.name), INFO_TOOL_NAME]));
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.description, tool.name).toBeTruthy();
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
      expect(tool.annotations?.openWorldHint).toBe(tool.name !== INFO_TOOL_NAME);
    }
  });

  it('pfsense_mcp_info reports local facts only and makes no upstream call', async () => {
    h.sim.control.resetCounters();
    const result = await h.client.callTool({ name: INFO_TOOL_NAME, arguments: {} });
    expect(result.isError).toBeFalsy();
    const { toolsets, ...facts } = result.structuredContent as { toolsets: { name: string; selected: boolean; tools: string[] }[] };
    expect(facts).toEqual({
      server_name: 'pfsense-mcp',
      server_version: SERVER_VERSION,
      profile: 'auditor',
      pfrest_version: '2.10.0',
      registered_tool_count: 95,
      read_tool_count: 95,
      write_tool_count: 0,
      write_implemented: true,
      write_granted: false,
      write_runtime_enabled: false,
      // No write gates decided in this in-process server (the program decides them at start: write-tool.test.ts).
      write_capabilities: [],
      write_artifact_files: null,
      write_artifacts_warning: false,
      write_clock_blocked_until: null,
    });
    // every toolset is selected when PFSENSE_TOOLSETS is unset, and together they hold every READ tool
    expect(toolsets.every((t) => t.selected)).toBe(true);
    expect(toolsets.flatMap((t) => t.tools).sort()).toEqual(
      [
        ...READ_CATALOGUE.map((t) => t.name),
        'pfsense_set_firewall_alias_description',
        'pfsense_change_firewall_alias_entries',
        'pfsense_get_write_operations',
      ].sort(),
    );
    expect(Object.values(h.sim.control.counters()).reduce((a, b) => a + b, 0)).toBe(0);
    const text = (result.content as { text: string }[])[0]?.text ?? '';
    expect(text).not.toContain(h.sim.apiKey);
    expect(text).not.toContain(h.sim.url);
  });

  it('answers a list tool with structuredContent and the same JSON as one text block, one GET upstream', async () => {
    const aliases = READ_CATALOGUE.find((t) => t.name === 'pfsense_get_firewall_aliases');
    expect(aliases).toBeDefined();
    h.sim.control.resetCounters();
    const result = await h.client.callTool({ name: 'pfsense_get_firewall_aliases', arguments: { limit: 5 } });
    expect(result.isError).toBeFalsy();
    const content = result.content as { type: string; text: string }[];
    expect(content).toHaveLength(1);
    expect(JSON.parse(content[0]?.text ?? 'null')).toEqual(result.structuredContent);
    expect(result.structuredContent).toMatchObject({ limit: 5, offset: 0, truncated: false });
    expect(h.sim.control.count('/api/v2/firewall/aliases', 'GET')).toBe(1);
  });

  it('logs exactly one JSON line per tool call with tool, duration and outcome only', async () => {
    h.logs.length = 0;
    await h.client.callTool({ name: 'pfsense_get_firewall_aliases', arguments: { limit: 2 } });
    await h.client.callTool({ name: 'pfsense_get_firewall_aliases', arguments: { limit: 5000 } });
    await h.client.callTool({ name: 'no_such_tool', arguments: {} });
    const lines = h.logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l['event'] === 'tool_call');
    expect(lines).toHaveLength(3);
    expect(lines.map((l) => [l['tool'], l['outcome'], l['code']])).toEqual([
      ['pfsense_get_firewall_aliases', 'ok', undefined],
      ['pfsense_get_firewall_aliases', 'client_error', 'INVALID_INPUT'],
      ['unknown_tool', 'client_error', 'UNKNOWN_TOOL'],
    ]);
    for (const line of lines) {
      expect(Object.keys(line).sort()).toEqual(expect.arrayContaining(['duration_ms', 'event', 'level', 'outcome', 'tool', 'ts']));
      expect(Object.keys(line).every((k) => ['ts', 'level', 'event', 'tool', 'duration_ms', 'outcome', 'code'].includes(k))).toBe(true);
    }
    expect(h.logs.join('')).not.toContain('5000');
  });

  it('refuses hostile input with INVALID_INPUT and keeps serving', async () => {
    const huge = 'A'.repeat(2 * 1024 * 1024);
    const cases: Record<string, unknown>[] = [
      { limit: 0 },
      { limit: 1001 },
      { limit: 1.5 },
      { offset: -1 },
      { limit: '10' },
      { filter: 'name=x' },
      { [huge.slice(0, 100_000)]: 1 },
      { limit: huge },
      { include_identifying_metadata: 'yes' },
      // Unicode tricks: a zero-width space inside a known key, Arabic-Indic digits, a full-width digit.
      { ['li\u200bmit']: 5 },
      { limit: '\u0661\u0660' },
      { limit: '\uff15' },
    ];
    for (const args of cases) {
      const result = await h.client.callTool({ name: 'pfsense_get_firewall_aliases', arguments: args });
      const error = errorOf(result);
      expect(error.code).toBe('INVALID_INPUT');
      expect(JSON.stringify(result).length).toBeLessThan(4096);
    }
    // A homoglyph tool name (Cyrillic "е") is not the tool.
    const homoglyph = await h.client.callTool({ name: 'pfsense_get_firewall_alias\u0435s', arguments: {} });
    expect(errorOf(homoglyph).code).toBe('UNKNOWN_TOOL');
    const ok = await h.client.callTool({ name: 'pfsense_get_firewall_aliases', arguments: {} });
    expect(ok.isError ?? false).toBe(false);
  });

  it('does not let a __proto__ argument pollute anything (zod drops it; nothing reaches upstream)', async () => {
    h.sim.control.resetCounters();
    const result = await h.client.callTool({
      name: 'pfsense_get_firewall_aliases',
      arguments: JSON.parse('{"__proto__":{"polluted":true}}') as Record<string, unknown>,
    });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    if (result.isError === true) expect(errorOf(result).code).toBe('INVALID_INPUT');
    else expect(result.structuredContent).toMatchObject({ limit: 100, offset: 0 });
  });
});

describe('READ results that survive type drift (real-appliance shapes)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      sim: {
        data: {
          '/api/v2/interface/vlans': [
            { if: 'igb0', tag: 10, vlanif: 'igb0.10', pcp: '0', descr: 'office' },
            { if: 'igb0', tag: 'SENTINEL-TAG', vlanif: 'igb0.20', pcp: '', descr: 20 },
          ],
        },
      },
    });
  });
  afterAll(async () => {
    await h.close();
  });

  it('coerces "0" losslessly, nulls what does not fit, names it in drift and logs the names (never values) on the call line', async () => {
    h.logs.length = 0;
    const result = await h.client.callTool({ name: 'pfsense_get_interface_vlans', arguments: {} });
    expect(result.isError).toBeFalsy();
    const content = result.structuredContent as { data: Record<string, unknown>[]; drift?: string[] };
    expect(content.data.map((v) => [v['pcp'], v['tag'], v['descr']])).toEqual([
      [0, 10, 'office'],
      [null, null, '20'],
    ]);
    expect(content.drift).toEqual(['pcp', 'tag']);
    const lines = h.logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l['event'] === 'tool_call');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ tool: 'pfsense_get_interface_vlans', outcome: 'ok', drift: ['pcp', 'tag'] });
    expect(h.logs.join('')).not.toContain('SENTINEL');
    expect(JSON.stringify(result)).not.toContain('SENTINEL');
  });

  it('a call without drift logs no drift field', async () => {
    h.logs.length = 0;
    await h.client.callTool({ name: 'pfsense_get_system_version', arguments: {} });
    const line = h.logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l['event'] === 'tool_call');
    expect(line).toBeDefined();
    expect(line).not.toHaveProperty('drift');
  });
});

describe('one server factory, two protocol eras', () => {
  it('lists the very same tool definitions (names, schemas, annotations) to a 2026-07-28 and a 2025-era client', async () => {
    const modern = await startHarness({ era: 'modern' });
    const legacy = await startHarness({ era: 'legacy' });
    try {
      const [a, b] = await Promise.all([modern.client.listTools(), legacy.client.listTools()]);
      expect(a.tools).toHaveLength(95);
      expect(a.tools).toEqual(b.tools);
      // The server's identity and instructions reach both: in the 2026 era through server/discover.
      for (const h of [modern, legacy]) {
        expect(h.client.getServerVersion()).toMatchObject({ name: 'pfsense-mcp', version: SERVER_VERSION });
        expect(h.client.getInstructions()).toMatch(/Read-only tools for one pfSense firewall/);
        expect(h.client.getServerCapabilities()?.tools).toBeDefined();
      }
    } finally {
      await modern.close();
      await legacy.close();
    }
  });
});
