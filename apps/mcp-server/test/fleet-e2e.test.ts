// A fleet from one BUILT server: spawned over stdio by the v2 SDK Client with PFSENSE_INVENTORY_FILE naming ten
// simulators on loopback and one appliance that accepts and never answers (README "Fleet").
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startSimulator, type RunningSimulator } from '@pfsense-mcp/pfsense-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBuilt, ensureBuilt, runBuilt, writeKeyFile, type ConnectedServer } from './support/built-server.js';
import { startSilentAppliance, type SilentAppliance } from './support/silent-appliance.js';
import { toolErrorCode } from './support/tool-error-code.js';

/** How long the silent appliance's reads wait (its inventory entry's response_timeout_ms). */
const SILENT_TIMEOUT_MS = 1_500;
const NAMES = Array.from({ length: 10 }, (_, i) => `site-${i + 1}`);
const sims: RunningSimulator[] = [];
const keyFiles: string[] = [];
let silent: SilentAppliance;
let dir: string;
let server: ConnectedServer;
let inventory: string;

beforeAll(async () => {
  ensureBuilt();
  for (let i = 0; i < NAMES.length; i += 1) sims.push(await startSimulator());
  silent = await startSilentAppliance();
  const entries = sims.map((sim, i) => {
    keyFiles.push(writeKeyFile(sim.apiKey));
    return { name: NAMES[i], url: sim.url, api_key_file: keyFiles[i], allow_http_loopback: true };
  });
  keyFiles.push(writeKeyFile('test-only-key-of-the-silent-appliance'));
  entries.push({
    name: 'silent',
    url: silent.url,
    api_key_file: keyFiles[keyFiles.length - 1],
    allow_http_loopback: true,
    response_timeout_ms: SILENT_TIMEOUT_MS,
  } as (typeof entries)[number]);
  dir = mkdtempSync(join(tmpdir(), 'mcp-fleet-e2e-'));
  inventory = join(dir, 'inventory.json');
  writeFileSync(inventory, JSON.stringify(entries), { mode: 0o600 });
  chmodSync(inventory, 0o600);
  server = await connectBuilt({ PFSENSE_INVENTORY_FILE: inventory, PFSENSE_LOG_LEVEL: 'warn' });
}, 120_000);

afterAll(async () => {
  await server?.close();
  for (const sim of sims) await sim.close();
  await silent?.close();
  for (const file of keyFiles) rmSync(dirname(file), { recursive: true, force: true });
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

type Row = Record<string, unknown>;
const structured = (result: object) => (result as { structuredContent: Record<string, unknown> }).structuredContent;

describe('the built server with an inventory of eleven', () => {
  it('pfsense_list_appliances names all eleven, the silent one unreachable, writes off, nothing secret', async () => {
    const result = await server.client.callTool({ name: 'pfsense_list_appliances', arguments: {} });
    const appliances = structured(result)['appliances'] as Row[];
    expect(appliances.map((a) => a['name'])).toEqual([...NAMES, 'silent']);
    for (const a of appliances.slice(0, 10)) {
      expect(a).toMatchObject({ reachable: true, error: null, writes_enabled: false, writes_refused: null });
    }
    expect(appliances[10]).toEqual({
      name: 'silent',
      reachable: false,
      pfrest_version: null,
      error: 'UPSTREAM_TIMEOUT',
      writes_enabled: false,
      writes_refused: null,
      write_artifact_files: null,
      write_artifacts_warning: false,
      write_clock_blocked_until: null,
    });
    const text = JSON.stringify(result);
    for (const sim of sims) expect(text).not.toContain(sim.url);
    expect(text).not.toContain(dir);
    expect(text).not.toContain('api-key');
  }, 60_000);

  it('answers one fleet-wide filtered question: tagged rows from the ten, an error entry for the silent one', async () => {
    const result = await server.client.callTool({
      name: 'pfsense_get_firewall_rules',
      arguments: { appliance: '*', fields: ['descr', 'type'], filter: [{ field: 'type', op: 'eq', value: 'pass' }] },
    });
    expect(result.isError ?? false).toBe(false);
    const answer = structured(result);
    const rows = answer['data'] as Row[];
    expect(new Set(rows.map((r) => r['appliance']))).toEqual(new Set(NAMES));
    expect(rows.every((r) => r['type'] === 'pass')).toBe(true);
    // The silent appliance ends in its own timeout, as an entry: the others' rows are not held back or lost.
    expect(answer['errors']).toEqual([{ appliance: 'silent', code: 'UPSTREAM_TIMEOUT' }]);
    expect(answer['next_offset']).toBeNull();
  }, 60_000);

  it('refuses a read without appliance as an input error listing the names', async () => {
    const result = await server.client.callTool({ name: 'pfsense_get_system_version', arguments: {} });
    expect(toolErrorCode(result)).toBe('INVALID_INPUT');
    const text = (result.content as { text: string }[])[0]?.text ?? '';
    expect(text).toContain([...NAMES, 'silent'].join(', '));
  });

  it('offers no write tool when no entry has write_dir, and pfsense_mcp_info says how many appliances', async () => {
    const info = structured(await server.client.callTool({ name: 'pfsense_mcp_info', arguments: {} }));
    expect(info).toMatchObject({ appliance_count: 11, write_runtime_enabled: false, write_tool_count: 0 });
    const { tools } = await server.client.listTools();
    expect(tools.map((t) => t.name)).not.toContain('pfsense_set_firewall_alias_description');
    expect(tools.find((t) => t.name === 'pfsense_get_firewall_rules')?.inputSchema.properties).toHaveProperty('appliance');
  });

  it('--check-config prints one line per appliance (checked concurrently) and fails for the silent one', async () => {
    const run = await runBuilt({ PFSENSE_INVENTORY_FILE: inventory }, ['--check-config']);
    expect(run.code).toBe(1);
    const lines = run.stdout.split('\n').filter((l) => l.trimStart().startsWith('appliance '));
    expect(lines.map((l) => l.trim().split(/\s+/)[1])).toEqual([...NAMES, 'silent']);
    for (const l of lines.slice(0, 10)) expect(l).toMatch(/reachable, pfrest \d+\.\d+\.\d+, key auth enabled, read-only mode (on|off)$/);
    expect(lines[10]).toMatch(/FAILED: UPSTREAM_TIMEOUT$/);
    expect(run.stdout).toContain('write tool      not requested (no inventory entry has write_dir)');
    for (const sim of sims) expect(run.stdout).not.toContain(sim.apiKey);
  }, 60_000);
});
