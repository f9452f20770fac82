// Signed writes per appliance, never across (docs/DESIGN.md §8), through the BUILT programs: the server with an
// inventory of ten simulators, writes enabled on two (`a` and `b`, each with its own write directory and the SAME
// operator keys pinned on both), `pfsense-mcp admin --appliance`, and the real signer.
import { chmodSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '@pfsense-mcp/pfsense-sim';
import { writeDirectoryLayout } from '../src/index.js';
import { connectBuilt, ensureBuilt, writeKeyFile, type ConnectedServer } from './support/built-server.js';
import { approve, setUpHost, type HostRole, type HostSetup } from './support/host-setup.js';
import { placeInInbox } from './support/place-in-inbox.js';
import { runAdmin } from './support/run-admin.js';
import type { ProgramRun } from './support/run-program.js';
import { runSigner, ensureSignerBuilt } from './support/signer-program.js';
import { simRequest } from './support/sim-request.js';
import { callWrite, type WriteResult } from './support/write-result.js';

// Process starts (admin, signer, server) on a loaded machine: the bound is on them, not on anything the product waits for.
const PROCESS_TEST_TIMEOUT_MS = 240_000;
const ENTRIES_TOOL = 'pfsense_change_firewall_alias_entries';
const ALIASES_PATH = '/api/v2/firewall/aliases';
const STATUS_PATH = '/api/v2/status/system';
const NAMES = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'] as const;
const ROLES: readonly HostRole[] = ['plan-authorization', 'confirmation', 'reconciliation'];
const ALIASES = [
  { name: 'BLOCKLIST', type: 'host', descr: 'Blocked hosts', address: ['198.51.100.9'], detail: ['scanner'] },
  { name: 'WEB_PORTS', type: 'port', descr: 'HTTP and HTTPS', address: ['80', '443'], detail: ['http', 'https'] },
];

const sims = new Map<string, RunningSimulator>();
const keyFiles: string[] = [];
let hostA: HostSetup;
let hostB: HostSetup;
let inventory: string;
let server: ConnectedServer | null = null;
/** The request made on `a` (the replay test); its authorization is later installed on a, as it should be. */
let requestOnA: WriteResult | null = null;
const A_ARGS = { alias_name: 'WEB_PORTS', description: 'web ports (a)' };

function ok(r: ProgramRun, what: string): ProgramRun {
  if (r.status !== 0) throw new Error(`${what} failed (${r.status}): ${r.stdout}${r.stderr}`);
  return r;
}

beforeAll(async () => {
  ensureBuilt();
  await ensureSignerBuilt();
  for (const [i, name] of NAMES.entries()) {
    const sim = await startSimulator({
      data: { [ALIASES_PATH]: ALIASES, [STATUS_PATH]: { platform: 'Netgate 4200', netgate_id: `a1b2c3d4e5f6071${i}` } },
    });
    sims.set(name, sim);
    keyFiles.push(writeKeyFile(sim.apiKey));
  }
  // `a`: the README's host setup (admin init, the operator's keygen, admin trust). `b`: its own write directory,
  // trusting the same operator public keys — the case where a signed file could be carried from one to the other.
  hostA = setUpHost();
  const bDir = join(hostA.root, 'write-b');
  const init = ok(runAdmin(['init', '--dir', bDir, '--json']), 'admin init b');
  for (const role of ROLES) {
    ok(
      runAdmin(['trust', '--dir', bDir, '--role', role, '--public-key', join(hostA.root, 'transfer', `${role}.pub`), '--json']),
      'trust b',
    );
  }
  hostB = Object.freeze({ ...hostA, dir: bDir, serverPub: String(init.json['server_public_key_file']) });
  inventory = join(hostA.root, 'inventory.json');
  writeFileSync(
    inventory,
    JSON.stringify(
      NAMES.map((name, i) => ({
        name,
        url: (sims.get(name) as RunningSimulator).url,
        api_key_file: keyFiles[i],
        allow_http_loopback: true,
        ...(name === 'a' ? { write_dir: hostA.dir } : {}),
        ...(name === 'b' ? { write_dir: bDir, write_capabilities: ['alias_description', 'alias_entries'] } : {}),
      })),
    ),
  );
  chmodSync(inventory, 0o600);
}, 300_000);

afterAll(async () => {
  await server?.close();
  for (const sim of sims.values()) await sim.close();
  for (const f of keyFiles) rmSync(join(f, '..'), { recursive: true, force: true });
  hostA?.cleanup();
});

const env = (): Record<string, string> => ({ PFSENSE_INVENTORY_FILE: inventory, PFSENSE_PROFILE: 'write_protected' });
async function serve(): Promise<ConnectedServer> {
  await server?.close();
  server = await connectBuilt(env());
  return server;
}
const call = async (args: Record<string, unknown>, tool?: string): Promise<WriteResult> => {
  const { raw: _raw, ...result } = await callWrite((server as ConnectedServer).client, args, {
    timeoutMs: 120_000,
    ...(tool === undefined ? {} : { tool }),
  });
  return result;
};
/** Every request a simulator saw that was not a GET. */
const mutations = (name: string): string[] =>
  Object.entries((sims.get(name) as RunningSimulator).control.counters())
    .filter(([k, n]) => !k.startsWith('GET ') && n > 0)
    .map(([k]) => k);
const structured = (r: unknown): Record<string, unknown> => (r as { structuredContent: Record<string, unknown> }).structuredContent;
/** Each appliance's write_artifact_files, as pfsense_list_appliances reports them now. */
async function artifactFiles(): Promise<Map<string, { inbox: number; outbox: number } | null>> {
  const listed = structured(await (server as ConnectedServer).client.callTool({ name: 'pfsense_list_appliances', arguments: {} }));
  const rows = listed['appliances'] as { name: string; write_artifact_files: { inbox: number; outbox: number } | null }[];
  return new Map(rows.map((r) => [r.name, r.write_artifact_files]));
}

describe('signed writes per appliance, never across', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('lists writes on a and b only, and a write call must name the appliance', async () => {
    await serve();
    const listed = structured(await (server as ConnectedServer).client.callTool({ name: 'pfsense_list_appliances', arguments: {} }));
    const rows = listed['appliances'] as { name: string; writes_enabled: boolean; writes_refused: string | null }[];
    expect(rows.filter((r) => r.writes_enabled).map((r) => r.name)).toEqual(['a', 'b']);
    expect(rows.every((r) => r.writes_refused === null)).toBe(true);
    // Each write appliance's own runtime: its files and clock; none for an appliance without write_dir.
    expect(rows.find((r) => r.name === 'a')).toMatchObject({
      write_artifact_files: { inbox: 0, outbox: 0 },
      write_artifacts_warning: false,
      write_clock_blocked_until: null,
    });
    expect(rows.find((r) => r.name === 'c')).toMatchObject({ write_artifact_files: null, write_clock_blocked_until: null });
    const { tools } = await (server as ConnectedServer).client.listTools();
    expect(tools.find((t) => t.name === ENTRIES_TOOL)?.inputSchema.properties).toHaveProperty('appliance');
    await expect(call({ alias_name: 'WEB_PORTS', description: 'x' })).rejects.toThrow(/appliance: required/);
    await expect(call({ appliance: 'c', alias_name: 'WEB_PORTS', description: 'x' })).rejects.toThrow(/writes are not enabled on c/);
    // The entries capability is b's alone.
    await expect(call({ appliance: 'a', alias_name: 'BLOCKLIST', add: [{ address: '203.0.113.7' }] }, ENTRIES_TOOL)).rejects.toThrow(
      /not enabled on a/,
    );
  });

  it('blocks an address on b, verified on b, with nothing sent to any other appliance', async () => {
    const args = { appliance: 'b', alias_name: 'BLOCKLIST', add: [{ address: '203.0.113.7' }] };
    const requested = await call(args, ENTRIES_TOOL);
    expect(requested.status).toBe('requested');
    expect(requested.pending_request?.startsWith(hostB.dir)).toBe(true);
    approve(hostB, requested.pending_request ?? '', 'plan-authorization');
    const awaiting = await call(args, ENTRIES_TOOL);
    expect(awaiting.status).toBe('awaiting_confirmation');
    approve(hostB, awaiting.pending_request ?? '', 'confirmation');
    const verified = await call(args, ENTRIES_TOOL);
    expect(verified.status).toBe('verified');
    const b = sims.get('b') as RunningSimulator;
    const aliases = await simRequest(b.url, b.apiKey, 'GET', ALIASES_PATH);
    const blocklist = (aliases.json as { data: { name: string; address: string[] }[] }).data.find((x) => x.name === 'BLOCKLIST');
    expect(blocklist?.address).toContain('203.0.113.7');
    expect(mutations('b').length).toBeGreaterThan(0);
    for (const name of NAMES.filter((n) => n !== 'b')) expect(mutations(name), name).toEqual([]);
    // admin status --appliance b shows b's contract; a has none.
    const statusB = ok(runAdmin(['status', '--appliance', 'b', '--json'], env()), 'status b');
    const contractsB = (statusB.json['contracts'] as { contract_id: string }[]).map((c) => c.contract_id);
    expect(contractsB).toEqual([verified.contract_id]);
    // The requests b wrote are counted on b's row only.
    const files = await artifactFiles();
    expect(files.get('b')?.outbox).toBeGreaterThan(0);
    expect(files.get('a')).toEqual({ inbox: 0, outbox: 0 });
  });

  it('refuses an authorization signed for a when presented for b (same operator keys): nothing written', async () => {
    const args = A_ARGS;
    const onA = await call({ appliance: 'a', ...args });
    requestOnA = onA;
    expect(onA.status).toBe('requested');
    // The operator signs a's request; the signed file is carried to b's inbox instead of a's.
    const review = ok(
      runSigner([
        'review',
        onA.pending_request ?? '',
        '--server-key',
        hostA.serverPub,
        '--key',
        hostA.keys['plan-authorization'],
        '--json',
      ]),
      'review',
    );
    const prefix = String((review.json['review'] as Record<string, unknown>)['approve_prefix']);
    const signed = ok(
      runSigner([
        'sign',
        onA.pending_request ?? '',
        '--key',
        hostA.keys['plan-authorization'],
        '--server-key',
        hostA.serverPub,
        '--out',
        hostA.signedDir,
        '--approve',
        prefix,
        '--json',
      ]),
      'sign',
    );
    // admin inbox add --appliance b refuses it at once: it answers a's server-request key, not b's. Nothing copied.
    const inboxB = readdirSync(join(hostB.dir, 'inbox')).sort();
    const carried = runAdmin(['inbox', 'add', '--appliance', 'b', String(signed.json['file']), '--json'], env());
    expect(carried.status, carried.stderr).toBe(1);
    expect(carried.json['error']).toMatchObject({ code: 'ARTIFACT_OTHER_SERVER' });
    expect(String((carried.json['error'] as { message: string }).message)).toContain('another server');
    expect(readdirSync(join(hostB.dir, 'inbox')).sort()).toEqual(inboxB);
    // Copied into b's inbox by hand all the same, past that check.
    placeInInbox(hostB.dir, String(signed.json['file']));
    // The same change on b is b's own request (its own operation, bound to b).
    const onB = await call({ appliance: 'b', ...args });
    expect(onB.status).toBe('requested');
    expect(onB.operation_id).not.toBe(onA.operation_id);
    expect(mutations('a')).toEqual([]);
    for (const name of NAMES.filter((n) => n !== 'b')) expect(mutations(name), name).toEqual([]);
    const statusB = ok(runAdmin(['status', '--appliance', 'b', '--json'], env()), 'status b');
    expect((statusB.json['contracts'] as unknown[]).length).toBe(1);
    // The inbox grants nothing: b's coordinator never takes a's authorization, whose operation is bound to a's
    // appliance binding and which answers a's request key, for any operation of its own.
    const again = await call({ appliance: 'b', ...args });
    expect(again.status).toBe('requested');
    expect(again.operation_id).toBe(onB.operation_id);
  });

  it('a tampered store on a disables writes on a only: b stays writable', async () => {
    // a's own authorization, installed on a: a PREPARED contract on a, which b's status never shows.
    approve(hostA, requestOnA?.pending_request ?? '', 'plan-authorization');
    const awaiting = await call({ appliance: 'a', ...A_ARGS });
    expect(awaiting.status).toBe('awaiting_confirmation');
    const statusB = ok(runAdmin(['status', '--appliance', 'b', '--json'], env()), 'status b');
    expect((statusB.json['contracts'] as { contract_id: string }[]).map((c) => c.contract_id)).not.toContain(awaiting.contract_id);
    const statusA = ok(runAdmin(['status', '--appliance', 'a', '--json'], env()), 'status a');
    expect((statusA.json['contracts'] as { contract_id: string }[]).map((c) => c.contract_id)).toEqual([awaiting.contract_id]);
    // The server stops (the stores checkpoint on close); someone with write access to the file edits a's contract.
    const stopped = server as ConnectedServer;
    await stopped.close();
    expect(await stopped.gone()).toBe(true);
    server = null;
    const db = writeDirectoryLayout(hostA.dir, null).contractsDatabase;
    const bytes = readFileSync(db);
    const at = bytes.indexOf(Buffer.from('"state":"PREPARED"'));
    expect(at).toBeGreaterThan(0);
    bytes.write('"state":"VERIFIED"', at);
    writeFileSync(db, bytes);
    await serve();
    const listed = structured(
      await (server as unknown as ConnectedServer).client.callTool({ name: 'pfsense_list_appliances', arguments: {} }),
    );
    const rows = listed['appliances'] as { name: string; writes_enabled: boolean; writes_refused: string | null }[];
    const a = rows.find((r) => r.name === 'a');
    expect(a?.writes_enabled).toBe(false);
    expect(a?.writes_refused).toMatch(/^[A-Z][A-Z0-9_]+$/);
    expect(rows.find((r) => r.name === 'b')).toMatchObject({ writes_enabled: true, writes_refused: null });
    await expect(call({ appliance: 'a', alias_name: 'WEB_PORTS', description: 'y' })).rejects.toThrow(/writes are not enabled on a/);
    const onB = await call({ appliance: 'b', alias_name: 'WEB_PORTS', description: 'still writable' });
    expect(onB.status).toBe('requested');
    // admin refuses a's store, and still opens b's.
    expect(runAdmin(['status', '--appliance', 'a', '--json'], env()).status).toBe(1);
    expect(runAdmin(['status', '--appliance', 'b', '--json'], env()).status).toBe(0);
  });
});
