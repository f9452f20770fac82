// Black-box: the whole restore path through the MCP write tool — the BUILT server over stdio, the REAL signer,
// `pfsense-mcp admin` and the simulator. A backup is taken, more writes happen, the backup is restored: the server's
// write runtime refuses (anchor behind) until `admin reanchor --accept-restore`; then writes work again, and an
// authorization consumed after the backup (forgotten by the restored store) is refused on replay through the tool.
import { copyFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConnectedServer } from './support/built-server.js';
import { ALIAS_PATH, ALIASES_PATH, useBuiltWriteWorld } from './support/built-write-world.js';
import { approve } from './support/host-setup.js';
import { runAdmin as admin } from './support/run-admin.js';
import { simRequest } from './support/sim-request.js';
import { WRITE_TOOL } from './support/write-result.js';

const world = useBuiltWriteWorld([
  { name: 'LAN_SERVERS', type: 'host', descr: 'Servers', address: ['10.0.0.1'], detail: ['nas'] },
  { name: 'DMZ_HOSTS', type: 'host', descr: 'DMZ', address: ['10.3.0.10'], detail: ['web'] },
  { name: 'VPN_PEERS', type: 'host', descr: 'Peers', address: ['10.9.0.1'], detail: ['peer'] },
]);
const shared = world.sharedHost();

const serve = shared.serve;
const stop = shared.stop;
const call = world.call;

/** The whole signed write: requested → plan authorization → awaiting_confirmation → confirmation → verified. Returns the signed plan authorization's file. */
async function write(s: ConnectedServer, args: Record<string, unknown>): Promise<string> {
  const requested = await call(s, args);
  expect(requested.status).toBe('requested');
  const before = new Set(readdirSync(shared.host.signedDir));
  approve(shared.host, requested.pending_request ?? '', 'plan-authorization');
  const signed = readdirSync(shared.host.signedDir).filter((n) => !before.has(n));
  expect(signed).toHaveLength(1);
  const awaiting = await call(s, args);
  expect(awaiting.status).toBe('awaiting_confirmation');
  approve(shared.host, awaiting.pending_request ?? '', 'confirmation');
  expect((await call(s, args)).status).toBe('verified');
  return join(shared.host.signedDir, signed[0] ?? '');
}

async function alias(name: string): Promise<{ id: number; descr: string }> {
  const r = await simRequest(world.sim.url, world.sim.apiKey, 'GET', ALIASES_PATH);
  const list = (r.json as { data: { id: number; name: string; descr: string }[] }).data;
  const a = list.find((x) => x.name === name);
  if (a === undefined) throw new Error('alias missing');
  return { id: a.id ?? list.indexOf(a), descr: a.descr };
}

describe('restore from backup through the MCP write tool', () => {
  it('backup → more writes → restore → refused (behind) → reanchor --accept-restore → writes again; a later authorization is refused on replay', async () => {
    const s1 = await serve();
    await write(s1, { alias_name: 'LAN_SERVERS', description: 'Servers — before the backup' });
    await stop(s1);
    const backup = join(shared.host.root, 'backup');
    const b = admin(['backup', '--dir', shared.host.dir, '--out', backup, '--json']);
    expect(b.status, b.stderr).toBe(0);

    // After the backup: one more signed write, whose plan authorization the restored store will not remember.
    const dmz = { alias_name: 'DMZ_HOSTS', description: 'DMZ — after the backup' };
    const s2 = await serve();
    const afterBackupAuth = await write(s2, dmz);
    await stop(s2);

    // The restore (server stopped): the backup's databases back into DIR/store, the anchors untouched.
    for (const f of ['contracts.sqlite', 'consumption.sqlite']) {
      for (const suffix of ['-wal', '-shm']) rmSync(join(shared.host.dir, 'store', f + suffix), { force: true });
      copyFileSync(join(backup, f), join(shared.host.dir, 'store', f));
    }
    const s3 = await serve();
    try {
      const { tools } = await s3.client.listTools();
      expect(tools.some((t) => t.name === WRITE_TOOL)).toBe(false);
      const absent =
        s3
          .stderr()
          .split('\n')
          .find((l) => l.includes('"event":"write_tool_absent"')) ?? '';
      expect(absent).toContain('BEHIND');
    } finally {
      await stop(s3);
    }

    const accepted = admin(['reanchor', '--accept-restore', '--dir', shared.host.dir, '--json']);
    expect(accepted.status, accepted.stderr).toBe(0);

    // The appliance back at the state the replayed authorization was signed for, its signed file in the inbox again.
    const d = await alias('DMZ_HOSTS');
    expect(d.descr).toBe(dmz.description);
    expect((await simRequest(world.sim.url, world.sim.apiKey, 'PATCH', ALIAS_PATH, { id: d.id, descr: 'DMZ', apply: false })).status).toBe(
      200,
    );
    // (`inbox add` again: the installed copy may still be there — ALREADY_INSTALLED — or have been cleaned away.)
    const added = admin(['inbox', 'add', '--dir', shared.host.dir, afterBackupAuth, '--json']);
    expect([0, 1]).toContain(added.status);
    if (added.status === 1) expect(added.json).toMatchObject({ error: { code: 'ALREADY_INSTALLED' } });

    const s4 = await serve();
    try {
      const { tools } = await s4.client.listTools();
      expect(tools.some((t) => t.name === WRITE_TOOL)).toBe(true);
      // The replay: refused, and the alias untouched.
      const replay = await call(s4, dmz);
      expect(replay).toMatchObject({ status: 'refused', contract_id: null, pending_request: null });
      expect((await alias('DMZ_HOSTS')).descr).toBe('DMZ');
      // Fresh signatures work.
      await write(s4, { alias_name: 'VPN_PEERS', description: 'Peers — after the restore' });
      expect((await alias('VPN_PEERS')).descr).toBe('Peers — after the restore');
    } finally {
      await stop(s4);
    }
    // The refusal is the consumption gate's (REPLAY), recorded value-free in the audit chain.
    const exported = admin(['audit', 'export', '--dir', shared.host.dir]).stdout;
    expect(exported).toContain('REPLAY');
    expect(exported).toContain('restore-accepted');
    expect(admin(['audit', 'verify', '--dir', shared.host.dir]).status).toBe(0);
  }, 300_000);
});
