// Two inventory entries that are one appliance (two URLs, one pfSense id) never both write (docs/DESIGN.md §8):
// the built server reads each write appliance's own id at start and refuses writes on both; a third, distinct
// appliance stays writable. Real simulators over loopback, `pfsense-mcp admin init` for each write directory.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesToHex } from '@pfsense-mcp/canonical';
import { generateEd25519KeyPair } from '@pfsense-mcp/crypto';
import { startSimulator, type RunningSimulator } from '@pfsense-mcp/pfsense-sim';
import { connectBuilt, ensureBuilt, writeKeyFile, type ConnectedServer } from './support/built-server.js';
import { runAdmin } from './support/run-admin.js';
import { callWrite } from './support/write-result.js';

const NAMES = ['x', 'y', 'z'] as const;
// x and y answer with the same appliance id: one pfSense reached by two URLs.
const IDS: Readonly<Record<string, string>> = { x: 'a1b2c3d4e5f60001', y: 'a1b2c3d4e5f60001', z: 'a1b2c3d4e5f60003' };
const root = mkdtempSync(join(tmpdir(), 'fleet-same-appliance-'));
const sims = new Map<string, RunningSimulator>();
let server: ConnectedServer;

beforeAll(async () => {
  ensureBuilt();
  const entries = [];
  for (const name of NAMES) {
    const sim = await startSimulator({
      data: {
        '/api/v2/firewall/aliases': [{ name: 'WEB_PORTS', type: 'port', descr: 'web', address: ['80'], detail: ['http'] }],
        '/api/v2/status/system': { platform: 'Netgate 4200', netgate_id: IDS[name] },
      },
    });
    sims.set(name, sim);
    const dir = join(root, `write-${name}`);
    const init = runAdmin(['init', '--dir', dir, '--json']);
    if (init.status !== 0) throw new Error(`admin init failed: ${init.stderr}`);
    // The operator's public keys (test-only, generated here), pinned as `admin trust` does.
    for (const role of ['plan-authorization', 'confirmation', 'reconciliation']) {
      const key = bytesToHex(generateEd25519KeyPair().publicKey);
      const trust = runAdmin(['trust', '--dir', dir, '--role', role, '--public-key', key, '--json']);
      if (trust.status !== 0) throw new Error(`admin trust failed: ${trust.stderr}`);
    }
    entries.push({ name, url: sim.url, api_key_file: writeKeyFile(sim.apiKey), allow_http_loopback: true, write_dir: dir });
  }
  const inventory = join(root, 'inventory.json');
  writeFileSync(inventory, JSON.stringify(entries));
  chmodSync(inventory, 0o600);
  server = await connectBuilt({ PFSENSE_INVENTORY_FILE: inventory, PFSENSE_PROFILE: 'write_protected' });
}, 240_000);

afterAll(async () => {
  await server?.close();
  for (const sim of sims.values()) await sim.close();
  rmSync(root, { recursive: true, force: true });
});

type Row = { name: string; writes_enabled: boolean; writes_refused: string | null };
async function rows(): Promise<Row[]> {
  const r = await server.client.callTool({ name: 'pfsense_list_appliances', arguments: {} });
  return (r as { structuredContent: { appliances: Row[] } }).structuredContent.appliances;
}

describe('two inventory entries that are one appliance', () => {
  it('take no write, named SAME_APPLIANCE; a distinct appliance stays writable', async () => {
    // The ids are read in the background after start: wait for the refusal to show, then both calls are refused.
    const deadline = Date.now() + 60_000;
    while ((await rows()).filter((r) => r.writes_refused === 'SAME_APPLIANCE').length < 2) {
      if (Date.now() > deadline) throw new Error('the same appliance was not found in time');
      await new Promise((r) => setTimeout(r, 20));
    }
    await expect(callWrite(server.client, { appliance: 'x', alias_name: 'WEB_PORTS', description: 'one' })).rejects.toThrow(
      /writes are not enabled on x \(SAME_APPLIANCE/,
    );
    await expect(callWrite(server.client, { appliance: 'y', alias_name: 'WEB_PORTS', description: 'one' })).rejects.toThrow(
      /writes are not enabled on y \(SAME_APPLIANCE/,
    );
    const listed = await rows();
    expect(listed.map((r) => [r.name, r.writes_enabled, r.writes_refused])).toEqual([
      ['x', false, 'SAME_APPLIANCE'],
      ['y', false, 'SAME_APPLIANCE'],
      ['z', true, null],
    ]);
    const onZ = await callWrite(server.client, { appliance: 'z', alias_name: 'WEB_PORTS', description: 'z only' });
    expect(onZ.status).toBe('requested');
    for (const name of NAMES) {
      const sent = Object.entries((sims.get(name) as RunningSimulator).control.counters()).filter(
        ([k, n]) => !k.startsWith('GET ') && n > 0,
      );
      expect(sent, name).toEqual([]);
    }
  }, 240_000);

  it('logs one write_tool_absent line for each of the two, naming the appliance and SAME_APPLIANCE', async () => {
    // After the refusal above: everything the server logged is on stderr once it has exited.
    await server.close();
    await server.stderrEnded;
    const absent = server
      .stderr()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l['event'] === 'write_tool_absent');
    expect(absent.map((l) => [l['appliance'], l['code'], l['gate'], l['level']]).sort()).toEqual([
      ['x', 'SAME_APPLIANCE', 'runtime_enabled', 'warn'],
      ['y', 'SAME_APPLIANCE', 'runtime_enabled', 'warn'],
    ]);
  }, 60_000);
});
