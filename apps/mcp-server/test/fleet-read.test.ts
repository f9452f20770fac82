// Fleet reads through a real MCP client (the v2 SDK Client, in memory) against ten in-process simulators and one
// appliance that never answers, each appliance behind its own HTTP transport (README "Fleet", docs/DESIGN.md §8).
import type { Client } from '@modelcontextprotocol/client';
import { startSimulator, type RunningSimulator } from '@pfsense-mcp/pfsense-sim';
import { findReadTool, type RestApiClient } from '@pfsense-mcp/pfsense-read';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  attachReadTools,
  buildReadClient,
  classifyToolError,
  createServerFactory,
  LIST_APPLIANCES_TOOL_NAME,
  runFleetRead,
  type ReadClientHandle,
} from '../src/index.js';
import { connectFactory, errorOf } from './support/in-process-server.js';
import { until } from './support/until.js';
import { startSilentAppliance, type SilentAppliance } from './support/silent-appliance.js';

const NAMES = Array.from({ length: 10 }, (_, i) => `fw-${String(i + 1).padStart(2, '0')}`);
const sims: RunningSimulator[] = [];
/** Requests each simulator served (its log: one line per request). */
const served = NAMES.map(() => 0);
let silent: SilentAppliance;
const handles: ReadClientHandle[] = [];
let client: Client;
const clients = new Map<string, RestApiClient>();
let close: () => Promise<void>;

const target = (url: string) => ({
  url,
  apiKeyFile: '/unused',
  caFile: null,
  profile: 'auditor' as const,
  allowedTools: null,
  toolsets: null,
  logLevel: 'silent' as const,
  allowHttpLoopback: true,
});

beforeAll(async () => {
  for (let i = 0; i < NAMES.length; i += 1) sims.push(await startSimulator({ log: () => (served[i] = (served[i] as number) + 1) }));
  silent = await startSilentAppliance();
  sims.forEach((sim, i) => {
    const handle = buildReadClient(target(sim.url), sim.apiKey);
    handles.push(handle);
    clients.set(NAMES[i] as string, handle.client);
  });
  const quiet = buildReadClient(target(silent.url), 'silent-key', { responseTimeoutMs: 60_000 });
  handles.push(quiet);
  clients.set('silent', quiet.client);
  const factory = createServerFactory('auditor', null);
  attachReadTools(factory, handles[0]?.client as RestApiClient, undefined, clients);
  const connected = await connectFactory(factory);
  client = connected.client;
  close = connected.close;
}, 60_000);

afterAll(async () => {
  await close?.();
  for (const handle of handles) handle.close();
  for (const sim of sims) await sim.close();
  await silent?.close();
});

type Row = Record<string, unknown>;
const structured = (result: object) => (result as { structuredContent: Record<string, unknown> }).structuredContent;

describe('a server with an inventory', () => {
  it('lists pfsense_list_appliances and an appliance argument on every READ tool (a plain string, no enum of names)', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain(LIST_APPLIANCES_TOOL_NAME);
    const rules = tools.find((t) => t.name === 'pfsense_get_firewall_rules');
    expect(rules?.inputSchema.properties?.['appliance']).toEqual({
      anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    });
    expect(tools.find((t) => t.name === 'pfsense_get_system_version')?.inputSchema.properties?.['appliance']).toEqual({ type: 'string' });
    expect(JSON.stringify(tools)).not.toContain('fw-01');
    // The fleet fields are in the output schema a client checks structuredContent against.
    expect(Object.keys(rules?.outputSchema?.properties ?? {})).toEqual(expect.arrayContaining(['errors', 'next_offsets']));
  });

  it('refuses a read without appliance, listing the names', async () => {
    const error = errorOf(await client.callTool({ name: 'pfsense_get_firewall_rules', arguments: {} }));
    expect(error.code).toBe('INVALID_INPUT');
    expect(error['detail']).toContain(`appliance: required: this server reads 11 appliances; name one of: ${NAMES.join(', ')}, silent`);
    const typo = errorOf(await client.callTool({ name: 'pfsense_get_system_version', arguments: { appliance: 'fw-1' } }));
    expect(typo['detail']).toContain('did you mean fw-01?');
    const singular = errorOf(await client.callTool({ name: 'pfsense_get_system_version', arguments: { appliance: '*' } }));
    expect(singular['detail']).toContain('is for list tools');
  });

  it('reads one named appliance exactly as a single-appliance server does (no tags, no fleet fields)', async () => {
    const result = structured(await client.callTool({ name: 'pfsense_get_firewall_rules', arguments: { appliance: 'fw-03', limit: 2 } }));
    expect(Object.keys(result).sort()).toEqual(['count', 'data', 'limit', 'next_offset', 'offset', 'truncated']);
    expect((result['data'] as Row[])[0]).not.toHaveProperty('appliance');
  });

  it('one hanging appliance among ten does not stall the others; its failure is an error entry', async () => {
    const before = [...served];
    const call = client.callTool({
      name: 'pfsense_get_firewall_rules',
      arguments: { appliance: '*', fields: ['descr'], filter: [{ field: 'type', op: 'eq', value: 'block' }] },
    });
    // The silent appliance holds its connection; the ten still answer while it hangs.
    await silent.connected;
    await until(() => served.every((n, i) => n > (before[i] as number)));
    silent.cut();
    const result = structured(await call);
    const rows = result['data'] as Row[];
    expect(new Set(rows.map((r) => r['appliance']))).toEqual(new Set(NAMES));
    expect(rows.every((r) => Object.keys(r).join() === 'appliance,id,descr')).toBe(true);
    expect(result['errors']).toEqual([{ appliance: 'silent', code: 'UPSTREAM_UNREACHABLE' }]);
    expect(result['next_offset']).toBeNull();
    // Every appliance's rows are the ones a read of it alone returns.
    const alone = structured(
      await client.callTool({
        name: 'pfsense_get_firewall_rules',
        arguments: { appliance: 'fw-07', fields: ['descr'], filter: [{ field: 'type', op: 'eq', value: 'block' }] },
      }),
    );
    expect(rows.filter((r) => r['appliance'] === 'fw-07').map(({ appliance: _, ...r }) => r)).toEqual(alone['data']);
  }, 60_000);

  it('a list of names reads those, continuing per appliance with next_offsets', async () => {
    const result = structured(
      await client.callTool({ name: 'pfsense_get_firewall_rules', arguments: { appliance: ['fw-02', 'fw-05', 'fw-02'], limit: 1 } }),
    );
    expect((result['data'] as Row[]).map((r) => r['appliance'])).toEqual(['fw-02', 'fw-05']);
    expect(result['errors']).toEqual([]);
    expect(result['next_offsets']).toEqual({ 'fw-02': 1, 'fw-05': 1 });
  });

  it('keeps a fleet result under the size bound, continuing where each appliance was cut', async () => {
    const tool = findReadTool('pfsense_get_firewall_rules');
    if (tool === undefined) throw new Error('no firewall rules tool');
    const names = ['fw-01', 'fw-02', 'fw-03'];
    const input = { limit: 1000, offset: 0, fields: ['descr'] };
    const full = await runFleetRead(tool, input, clients, names, new AbortController().signal, classifyToolError);
    const perAppliance = (full.structured['data'] as Row[]).filter((r) => r['appliance'] === 'fw-02').length;
    expect(perAppliance).toBeGreaterThan(2);
    // A bound that keeps fw-01's rows and part of fw-02's.
    const firstTwo = JSON.stringify(full.structured).length;
    const bounded = await runFleetRead(
      tool,
      input,
      clients,
      names,
      new AbortController().signal,
      classifyToolError,
      Math.floor(firstTwo * 1.2),
    );
    const rows = bounded.structured['data'] as Row[];
    expect(bounded.structured['truncated']).toBe(true);
    expect(bounded.text).toBe(JSON.stringify(bounded.structured));
    const cutAt = rows[rows.length - 1]?.['appliance'] as string;
    const kept = rows.filter((r) => r['appliance'] === cutAt).length;
    const nextOffsets = bounded.structured['next_offsets'] as Record<string, number>;
    expect(nextOffsets[cutAt]).toBe(kept);
    // Appliances with no row kept continue at their first row.
    for (const name of names.slice(names.indexOf(cutAt) + 1)) expect(nextOffsets[name]).toBe(0);
  });
});
