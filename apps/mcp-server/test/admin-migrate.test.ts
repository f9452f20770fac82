// `admin migrate` on a store written by the previous release (store schema 1, made at test time from a store
// this release wrote), through the BUILT server (the SDK client over stdio), the BUILT admin program and the real
// signer, against the simulator on loopback: the server refuses the old store and says to run `admin migrate`;
// migrate copies it first, upgrades it (refusing an old store whose rate row was edited), and the server then
// opens it and writes. A store from a newer release is
// refused by both, naming both versions; migrate refuses while a real server runs on DIR.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeDirectoryLayout } from '../src/index.js';
import { runBuilt, type ConnectedServer } from './support/built-server.js';
import { useBuiltWriteWorld } from './support/built-write-world.js';
import type { HostSetup } from './support/host-setup.js';
import { recordedStoreVersion, rewriteAsNewerRelease, rewriteAsPreviousRelease, tamperRateRow } from './support/previous-release-store.js';
import { runAdmin as admin } from './support/run-admin.js';
import { WRITE_TOOL, type WriteResult } from './support/write-result.js';

// Many process starts per test (server, signer, admin): seconds each on a loaded machine.
const PROCESS_TEST_TIMEOUT_MS = 240_000;

const world = useBuiltWriteWorld([
  { name: 'OLD_RELEASE', type: 'host', descr: 'old', address: ['10.0.0.1'], detail: ['a'] },
  { name: 'NEW_RELEASE', type: 'host', descr: 'new', address: ['10.0.0.2'], detail: ['b'] },
]);
const host = () => world.host();
const serve = (h: HostSetup) => world.serve(h);
const stop = (s: ConnectedServer, h: HostSetup) => world.stop(s, h);

/** requested → signed authorization → awaiting_confirmation → signed confirmation → the executor's answer. */
async function verifiedChange(h: HostSetup, s: ConnectedServer, args: Record<string, unknown>): Promise<WriteResult> {
  await world.confirm(h, s, args);
  return world.call(s, args);
}

/** The write runtime's gate as `--check-config` reports it (exit 1 and the rule when the store is refused). */
async function checkConfig(h: HostSetup): Promise<{ code: number | null; out: string }> {
  const r = await runBuilt(world.env(h), ['--check-config']);
  return { code: r.code, out: r.stdout + r.stderr };
}

/** A write directory whose store was last written by the previous release (a VERIFIED change in it). */
let hosts = 0;
async function previousReleaseHost(): Promise<HostSetup> {
  hosts += 1;
  const h = host();
  const s = await serve(h);
  expect((await verifiedChange(h, s, { alias_name: 'OLD_RELEASE', description: `written before the update ${hosts}` })).status).toBe(
    'verified',
  );
  await stop(s, h);
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
    await stop(old, h);
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
    const patches = world.patches();
    expect((await verifiedChange(h, s, { alias_name: 'NEW_RELEASE', description: 'written after the update' })).status).toBe('verified');
    expect(world.patches()).toBe(patches + 1);
    // While this real server runs, migrate refuses and copies nothing.
    const busy = admin(['migrate', '--dir', h.dir, '--out', join(h.root, 'pre-busy'), '--json']);
    expect(busy.status).toBe(1);
    expect(busy.json['error']).toMatchObject({ code: 'WRITE_DIR_IN_USE' });
    expect(existsSync(join(h.root, 'pre-busy'))).toBe(false);
    await stop(s, h);
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
    expect(m.json['error']).toMatchObject({
      code: 'STORE_FROM_NEWER_RELEASE',
      message: expect.stringContaining('store schema version 3, this release 2'),
    });
    expect(recordedStoreVersion(writeDirectoryLayout(h.dir).contractsDatabase)).toBe(3);
  });
});
