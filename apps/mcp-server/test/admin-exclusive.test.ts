// Black-box: the commands that need the write directory to themselves refuse while a REAL server (the built
// program, write runtime on DIR) holds it, change nothing, and go ahead once that server is gone — its presence file
// left behind by a SIGKILL is reported as stale, not as a running server.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectBuilt } from './support/built-server.js';
import { useBuiltWriteWorld } from './support/built-write-world.js';
import { runAdmin as admin } from './support/run-admin.js';
import { until } from './support/until.js';

const world = useBuiltWriteWorld([{ name: 'LAN_SERVERS', type: 'host', descr: 'Servers', address: ['10.0.0.1'], detail: ['nas'] }]);
const shared = world.sharedHost();

/** The commands that refuse while a server holds DIR, each with what it would change. */
const EXCLUSIVE: readonly (readonly string[])[] = [
  ['purge'],
  ['reanchor', '--accept-restore'],
  ['migrate', '--out', 'OUT'],
  ['rotate', 'server-key'],
];

const presenceFiles = (): string[] => readdirSync(shared.host.dir).filter((n) => /^\.server-[0-9]+\.lock$/.test(n));
const snapshot = (): string =>
  [
    join('anchors', 'contracts.anchor'),
    join('anchors', 'consumption.anchor'),
    join('keys', 'server-request.key'),
    join('keys', 'server-request.pub'),
  ]
    .map((f) => readFileSync(join(shared.host.dir, f), 'utf8'))
    .join('|');

describe('refuse while a server holds DIR', () => {
  it('purge, reanchor --accept-restore, migrate and rotate server-key refuse beside a running server; after its SIGKILL its file is stale', async () => {
    const server = await connectBuilt(world.env(shared.host));
    const held = `.server-${server.pid}.lock`;
    try {
      await until(() => presenceFiles().includes(held) && existsSync(join(shared.host.dir, 'anchors', 'consumption.anchor')));
      const before = snapshot();
      for (const command of EXCLUSIVE) {
        const out = join(shared.host.root, `out-${command[0]}`);
        const r = admin([...command.map((a) => (a === 'OUT' ? out : a)), '--dir', shared.host.dir, '--json']);
        expect(r.status, `${command.join(' ')}: ${r.stdout}${r.stderr}`).toBe(1);
        expect(r.json).toMatchObject({ ok: false, error: { code: 'WRITE_DIR_IN_USE' } });
        expect(r.stderr).toContain(held);
        expect(r.stderr).toContain(`stop it before \`admin ${command[0] === 'rotate' ? 'rotate server-key' : command[0]}\``);
        expect(existsSync(out)).toBe(false);
        // The maintenance lock was given back: nothing but the server's own file is left.
        expect(existsSync(join(shared.host.dir, '.maintenance.lock'))).toBe(false);
      }
      expect(snapshot()).toBe(before);
      process.kill(server.pid, 'SIGKILL');
      expect(await server.gone()).toBe(true);
    } finally {
      await server.close();
    }
    // The killed server could not withdraw its file: it is stale (process gone), so DIR is not held.
    expect(presenceFiles()).toEqual([held]);
    for (const command of EXCLUSIVE) {
      const r = admin([...command.map((a) => (a === 'OUT' ? join(shared.host.root, `out2-${command[0]}`) : a)), '--dir', shared.host.dir]);
      expect(r.status, `${command.join(' ')}: ${r.stdout}${r.stderr}`).toBe(0);
      expect(r.stdout).toContain(`${held}: stale (its process is gone), not a running server; ignored`);
    }
  });
});
