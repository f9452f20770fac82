// Two inventory appliances, each with its own exchange folder (write_exchange_dir), through the BUILT programs
// (docs/DESIGN.md §8): `admin init --appliance` makes each appliance's write directory and folder, one operator's
// keys are pinned on both, and the signer's `approve` answers a block on each through that appliance's own folder
// only. `q` protects 203.0.113.0/24 (write_protected_networks): the entry `p` accepts, `q` refuses before any request.
import { chmodSync, copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '@pfsense-mcp/pfsense-sim';
import { ALIAS_PATH } from './support/built-write-world.js';
import { connectBuilt, ensureBuilt, writeKeyFile, type ConnectedServer } from './support/built-server.js';
import {
  approveBothThroughExchange,
  approveOnOperator,
  setUpApplianceExchange,
  setUpFleetOperator,
  type ExchangeHost,
} from './support/exchange-host.js';
import { runAdmin } from './support/run-admin.js';
import { ensureSignerBuilt } from './support/signer-program.js';
import { simRequest } from './support/sim-request.js';
import { callWrite, type WriteResult } from './support/write-result.js';

// Process starts (admin, signer, server) on a loaded machine: the bound is on them, not on anything the product waits for.
const PROCESS_TEST_TIMEOUT_MS = 240_000;
const ENTRIES_TOOL = 'pfsense_change_firewall_alias_entries';
const ALIASES_PATH = '/api/v2/firewall/aliases';
const NAMES = ['p', 'q'] as const;
type Name = (typeof NAMES)[number];

const root = mkdtempSync(join(tmpdir(), 'fleet-exchange-'));
chmodSync(root, 0o700);
const sims = new Map<Name, RunningSimulator>();
const hosts = new Map<Name, ExchangeHost>();
let server: ConnectedServer;
let env: Record<string, string>;

beforeAll(async () => {
  ensureBuilt();
  await ensureSignerBuilt();
  const entries = [];
  for (const [i, name] of NAMES.entries()) {
    const sim = await startSimulator({
      data: {
        [ALIASES_PATH]: [{ name: 'BLOCKLIST', type: 'host', descr: 'Blocked hosts', address: ['198.51.100.9'], detail: ['scanner'] }],
        '/api/v2/status/system': { platform: 'Netgate 4200', netgate_id: `b1b2c3d4e5f6070${i}` },
      },
    });
    sims.set(name, sim);
    entries.push({
      name,
      url: sim.url,
      api_key_file: writeKeyFile(sim.apiKey),
      allow_http_loopback: true,
      write_dir: join(root, `write-${name}`),
      write_exchange_dir: join(root, `exchange-${name}`),
      write_capabilities: ['alias_entries'],
      ...(name === 'q' ? { write_protected_networks: ['203.0.113.0/24'] } : {}),
    });
  }
  const inventory = join(root, 'inventory.json');
  writeFileSync(inventory, JSON.stringify(entries));
  chmodSync(inventory, 0o600);
  env = { PFSENSE_INVENTORY_FILE: inventory };
  const operator = setUpFleetOperator(root);
  for (const name of NAMES) hosts.set(name, setUpApplianceExchange(env, name, operator));
  server = await connectBuilt({ ...env, PFSENSE_PROFILE: 'write_protected' });
}, 300_000);

afterAll(async () => {
  await server?.close();
  for (const sim of sims.values()) await sim.close();
  rmSync(root, { recursive: true, force: true });
});

const host = (name: Name): ExchangeHost => hosts.get(name) as ExchangeHost;
const on =
  (appliance: Name) =>
  async (args: Record<string, unknown>): Promise<WriteResult> => {
    const { raw: _raw, ...result } = await callWrite(server.client, { appliance, ...args }, { timeoutMs: 120_000, tool: ENTRIES_TOOL });
    return result;
  };
const requestsIn = (name: Name): string[] => readdirSync(join(host(name).exchange, 'requests'));
const patches = (name: Name): number => (sims.get(name) as RunningSimulator).control.count(ALIAS_PATH, 'PATCH');
async function blocklist(name: Name): Promise<readonly string[] | undefined> {
  const sim = sims.get(name) as RunningSimulator;
  const r = await simRequest(sim.url, sim.apiKey, 'GET', ALIASES_PATH);
  return (r.json as { data: { name: string; address: string[] }[] }).data.find((a) => a.name === 'BLOCKLIST')?.address;
}

describe('an exchange folder per appliance', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it("answers a block on each appliance through its own folder; q's protected network refuses the entry p accepts", async () => {
    // admin init --appliance made each entry's exchange folder.
    for (const name of NAMES) expect(readdirSync(host(name).exchange).sort()).toEqual(['answers', 'requests']);

    // A block on p: its requests appear in p's folder only, and approve on q's folder finds nothing to answer.
    const block = { alias_name: 'BLOCKLIST', add: [{ address: '203.0.113.7' }] };
    const first = await on('p')(block);
    expect(first.status).toBe('requested');
    expect(requestsIn('p')).toHaveLength(1);
    expect(requestsIn('q')).toEqual([]);
    const onQ = await approveOnOperator(host('q'));
    expect(onQ.stdout).toContain('nothing to approve');
    await approveBothThroughExchange(host('p'), on('p'), block);
    expect(await on('p')(block)).toMatchObject({ status: 'verified' });
    expect(await blocklist('p')).toContain('203.0.113.7');
    expect(patches('p')).toBe(1);

    // The same entry on q: in q's protected network, refused before any request is written — nothing sent.
    expect(await on('q')(block)).toMatchObject({ status: 'refused', operation_id: null });
    expect(requestsIn('q')).toEqual([]);
    // An entry outside it: answered through q's folder, verified on q; p sees nothing more.
    const other = { alias_name: 'BLOCKLIST', add: [{ address: '198.51.100.20' }] };
    await approveBothThroughExchange(host('q'), on('q'), other);
    expect(await on('q')(other)).toMatchObject({ status: 'verified' });
    expect(await blocklist('q')).toEqual(['198.51.100.9', '198.51.100.20']);
    expect(patches('q')).toBe(1);
    expect(patches('p')).toBe(1);
    expect(requestsIn('p')).toHaveLength(2);
    expect(requestsIn('q')).toHaveLength(2);
  });

  it("does not take p's signed answer put in q's folder under q's request name: another server's, named in admin status", async () => {
    const block = { alias_name: 'BLOCKLIST', add: [{ address: '198.51.100.30' }] };
    const [beforeP, beforeQ] = [requestsIn('p'), requestsIn('q')];
    expect(await on('p')(block)).toMatchObject({ status: 'requested' });
    expect(await on('q')(block)).toMatchObject({ status: 'requested' });
    const requestP = requestsIn('p').find((f) => !beforeP.includes(f)) as string;
    const requestQ = requestsIn('q').find((f) => !beforeQ.includes(f)) as string;
    // The operator approves p's request in p's folder; the signed answer is then copied into q's folder, named as
    // the answer to q's request for the same change (same operator keys pinned on both).
    expect((await approveOnOperator(host('p'))).status).toBe(0);
    const answer = (request: string): string => request.replace(/\.json$/, '.signed.json');
    const signedForP = join(host('p').exchange, 'answers', answer(requestP));
    const putInQ = join(host('q').exchange, 'answers', answer(requestQ));
    const inboxQ = readdirSync(join(host('q').dir, 'inbox')).sort();
    copyFileSync(signedForP, putInQ);
    // q's pickup refuses it (it answers p's server-request key): q still asks for its own signature; nothing sent.
    expect(await on('q')(block)).toMatchObject({ status: 'requested' });
    expect(patches('q')).toBe(1);
    expect(readdirSync(join(host('q').dir, 'inbox')).sort()).toEqual(inboxQ);
    const status = runAdmin(['status', '--appliance', 'q', '--json'], env);
    expect(status.status, status.stderr).toBe(0);
    const invalid = (status.json['exchange'] as { invalid_files: { file: string; code: string }[] }).invalid_files;
    expect(invalid).toContainEqual(expect.objectContaining({ file: answer(requestQ), code: 'ARTIFACT_OTHER_SERVER' }));
  });
});
