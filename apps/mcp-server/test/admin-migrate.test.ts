// `admin migrate` on a store written by the previous release (store schema 1, made at test time from a store
// this release wrote), through the BUILT server (the SDK client over stdio), the BUILT admin program and the real
// signer, against the simulator on loopback: the server refuses the old store and says to run `admin migrate`;
// migrate copies it first, upgrades it (refusing an old store whose rate row was edited), and the server then
// opens it and writes. A store from a newer release is
// refused by both, naming both versions; migrate refuses while a real server runs on DIR.
import { existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '@pfsense-mcp/pfsense-sim';
import { writeDirectoryLayout } from '../src/index.js';
import { ensureBuilt, runBuilt, writeKeyFile } from './support/built-server.js';
import { recordedStoreVersion, rewriteAsNewerRelease, rewriteAsPreviousRelease, tamperRateRow } from './support/previous-release-store.js';
import { WRITE_TOOL, admin, approve, connectWriteServer, ensureSignerBuilt, setUpHost, type HostSetup, type WriteResult, type WriteServer } from './support/write-e2e.js';

const ALIASES_PATH = '/api/v2/firewall/aliases';
const ALIAS_PATH = '/api/v2/firewall/alias';
const STATUS_PATH = '/api/v2/status/system';
// Many process starts per test (server, signer, admin): seconds each on a loaded machine.
const PROCESS_TEST_TIMEOUT_MS = 240_000;

let sim: RunningSimulator;
let apiKeyFile: string;
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  ensureBuilt();
  ensureSignerBuilt();
  sim = await startSimulator({
    data: {
      [ALIASES_PATH]: [
        { name: 'OLD_RELEASE', type: 'host', descr: 'old', address: ['10.0.0.1'], detail: ['a'] },
        { name: 'NEW_RELEASE', type: 'host', descr: 'new', address: ['10.0.0.2'], detail: ['b'] },
      ],
      [STATUS_PATH]: { platform: 'Netgate 4200', netgate_id: 'a1b2c3d4e5f60718' },
    },
  });
  apiKeyFile = writeKeyFile(sim.apiKey);
}, 180_000);

afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
  await sim.close();
  rmSync(dirname(apiKeyFile), { recursive: true, force: true });
});

const env = (h: HostSetup): Record<string, string> => ({
  PFSENSE_URL: sim.url,
  PFSENSE_API_KEY_FILE: apiKeyFile,
  PFSENSE_ALLOW_HTTP_LOOPBACK: 'true',
  PFSENSE_PROFILE: 'write_protected',
  PFSENSE_WRITE_DIR: h.dir,
});

function host(): HostSetup {
  const h = setUpHost();
  cleanups.push(() => h.cleanup());
  return h;
}

async function serve(h: HostSetup): Promise<WriteServer> {
  const s = await connectWriteServer(env(h));
  cleanups.push(() => s.close());
  return s;
}

async function stop(s: WriteServer): Promise<void> {
  await s.close();
  expect(await s.gone()).toBe(true);
}

async function call(s: WriteServer, args: Record<string, unknown>): Promise<WriteResult> {
  const r = (await s.client.callTool({ name: WRITE_TOOL, arguments: args }, { timeout: 120_000 })) as { content: { text: string }[]; structuredContent?: unknown; isError?: boolean };
  if (r.isError === true) throw new Error(`tool error: ${r.content[0]?.text ?? ''}`);
  return r.structuredContent as WriteResult;
}

/** requested → signed authorization → awaiting_confirmation → signed confirmation → the executor's answer. */
async function verifiedChange(h: HostSetup, s: WriteServer, args: Record<string, unknown>): Promise<WriteResult> {
  approve(h, (await call(s, args)).pending_request ?? '', 'plan-authorization');
  const awaiting = await call(s, args);
  expect(awaiting.status).toBe('awaiting_confirmation');
  approve(h, awaiting.pending_request ?? '', 'confirmation');
  return call(s, args);
}

/** The write runtime's gate as `--check-config` reports it (exit 1 and the rule when the store is refused). */
async function checkConfig(h: HostSetup): Promise<{ code: number | null; out: string }> {
  const r = await runBuilt(env(h), ['--check-config']);
  return { code: r.code, out: r.stdout + r.stderr };
}

/** A write directory whose store was last written by the previous release (a VERIFIED change in it). */
let hosts = 0;
async function previousReleaseHost(): Promise<HostSetup> {
  hosts += 1;
  const h = host();
  const s = await serve(h);
  expect((await verifiedChange(h, s, { alias_name: 'OLD_RELEASE', description: `written before the update ${hosts}` })).status).toBe('verified');
  await stop(s);
  const layout = writeDirectoryLayout(h.dir);
  rewriteAsPreviousRelease(layout.contractsDatabase, layout.masterKeyFile);
  return h;
}

describe('admin migrate from the previous release', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('the server refuses the old store saying to run admin migrate; migrate copies it, upgrades it; the server opens and writes', async () => {
    const h = await previousReleaseHost();
    const layout = writeDirectoryLayout(h.dir);

    const refused = await checkConfig(h);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('STORE_LEGACY_SCHEMA');
    expect(refused.out).toContain('store schema version 1 was written by an older release; this release needs version 2');
    expect(refused.out).toContain('pfsense-mcp admin migrate --dir DIR');
    // A server started on it serves reads but has no write tool.
    const old = await serve(h);
    expect((await old.client.listTools()).tools.map((t) => t.name)).not.toContain(WRITE_TOOL);
    await stop(old);
    // The other admin commands say the same.
    const status = admin(['status', '--dir', h.dir, '--json']);
    expect(status.status).toBe(1);
    expect(status.json['error']).toMatchObject({ code: 'STORE_LEGACY_SCHEMA', message: expect.stringContaining('admin migrate') });

    // An edited old rate row (its MAC no longer matches): migrate refuses and the store stays at version 1.
    const untamper = tamperRateRow(layout.contractsDatabase);
    const tampered = admin(['migrate', '--dir', h.dir, '--out', join(h.root, 'pre-tampered'), '--json']);
    expect(tampered.status).toBe(1);
    expect(tampered.json['error']).toMatchObject({ code: 'STORE_RATE_STATE_MAC' });
    expect(recordedStoreVersion(layout.contractsDatabase)).toBe(1);
    untamper();

    const out = join(h.root, 'pre-migrate');
    const migrated = admin(['migrate', '--dir', h.dir, '--out', out, '--json']);
    expect(migrated.status, migrated.stderr).toBe(0);
    expect(migrated.json).toMatchObject({ ok: true, from_version: 1, schema_version: 2, migrated: true, backup_dir: out });
    // The copy was taken first: it is the old store, as it was.
    expect(recordedStoreVersion(join(out, 'contracts.sqlite'))).toBe(1);
    expect(recordedStoreVersion(layout.contractsDatabase)).toBe(2);
    expect(admin(['audit', 'verify', '--dir', h.dir]).status).toBe(0);
    expect((await checkConfig(h)).code).toBe(0);

    const s = await serve(h);
    const patches = sim.control.count(ALIAS_PATH, 'PATCH');
    expect((await verifiedChange(h, s, { alias_name: 'NEW_RELEASE', description: 'written after the update' })).status).toBe('verified');
    expect(sim.control.count(ALIAS_PATH, 'PATCH')).toBe(patches + 1);
    // While this real server runs, migrate refuses and copies nothing.
    const busy = admin(['migrate', '--dir', h.dir, '--out', join(h.root, 'pre-busy'), '--json']);
    expect(busy.status).toBe(1);
    expect(busy.json['error']).toMatchObject({ code: 'WRITE_DIR_IN_USE' });
    expect(existsSync(join(h.root, 'pre-busy'))).toBe(false);
    await stop(s);
    // Once it is gone, a second migrate finds nothing to do.
    const again = admin(['migrate', '--dir', h.dir, '--out', join(h.root, 'pre-again'), '--json']);
    expect(again.json).toMatchObject({ ok: true, from_version: 2, migrated: false });
  });

  it('a store from a newer release is refused by the server and by migrate, naming both versions', async () => {
    const h = host();
    expect(admin(['status', '--dir', h.dir]).status).toBe(0); // creates the stores
    rewriteAsNewerRelease(writeDirectoryLayout(h.dir).contractsDatabase, 3);
    const refused = await checkConfig(h);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('STORE_NEWER_SCHEMA');
    expect(refused.out).toContain('store schema version 3 was written by a newer release; this release reads version 2');
    const m = admin(['migrate', '--dir', h.dir, '--out', join(h.root, 'pre-newer'), '--json']);
    expect(m.status).toBe(1);
    expect(m.json['error']).toMatchObject({ code: 'STORE_FROM_NEWER_RELEASE', message: expect.stringContaining('store schema version 3, this release 2') });
    expect(recordedStoreVersion(writeDirectoryLayout(h.dir).contractsDatabase)).toBe(3);
  });
});
