// `pfsense-mcp admin … --appliance NAME` with PFSENSE_INVENTORY_FILE, through the BUILT program (docs/DESIGN.md §8):
// the command acts on that appliance's write_dir and write_anchor_dir only, and refuses every ambiguous form.
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureBuilt } from './support/built-server.js';
import { runAdmin } from './support/run-admin.js';
import type { ProgramRun } from './support/run-program.js';

vi.setConfig({ testTimeout: 240_000 });
const root = mkdtempSync(join(tmpdir(), 'admin-appliance-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
beforeAll(() => ensureBuilt(), 240_000);

const dirs = {
  a: join(root, 'a'),
  b: join(root, 'b'),
  anchorA: join(root, 'anchors-a'),
  exchangeA: join(root, 'exchange-a'),
  exchangeD: join(root, 'exchange-d'),
};
const inventory = join(root, 'inventory.json');
writeFileSync(
  inventory,
  JSON.stringify([
    {
      name: 'a',
      url: 'https://fw-a.example.net',
      api_key_file: join(root, 'a.key'),
      write_dir: dirs.a,
      write_anchor_dir: dirs.anchorA,
      write_exchange_dir: dirs.exchangeA,
    },
    { name: 'b', url: 'https://fw-b.example.net', api_key_file: join(root, 'b.key'), write_dir: dirs.b },
    { name: 'c', url: 'https://fw-c.example.net', api_key_file: join(root, 'c.key') },
    {
      name: 'd',
      url: 'https://fw-d.example.net',
      api_key_file: join(root, 'd.key'),
      write_dir: join(root, 'd'),
      write_exchange_dir: dirs.exchangeD,
    },
  ]),
);
chmodSync(inventory, 0o600);
const env = { PFSENSE_INVENTORY_FILE: inventory };

function refused(r: ProgramRun, code: string, exit: number): string {
  expect(r.status, r.stderr).toBe(exit);
  const error = r.json['error'] as { code: string; message: string };
  expect(error.code).toBe(code);
  return error.message;
}

describe('pfsense-mcp admin --appliance NAME', () => {
  it("acts on the named appliance's own write directory and anchor directory, and no other", () => {
    const a = runAdmin(['init', '--appliance', 'a', '--json'], env);
    expect(a.status, a.stderr).toBe(0);
    expect(a.json).toMatchObject({ ok: true, dir: dirs.a, anchor_dir: dirs.anchorA, appliance: 'a' });
    // The inventory entry names the directories: the environment lines need only the profile, the commands the name.
    expect(a.json['environment']).toEqual({ PFSENSE_PROFILE: 'write_protected' });
    expect((a.json['paths'] as { inbox: string }).inbox.startsWith(dirs.a)).toBe(true);
    expect(existsSync(dirs.b)).toBe(false);
    expect(readdirSync(dirs.anchorA).length).toBeGreaterThan(0);
    // The entry's exchange folder is made too, as --exchange PATH makes it with --dir, and named as the entry's field.
    expect((a.json['paths'] as { exchange: string }).exchange).toBe(dirs.exchangeA);
    expect(readdirSync(dirs.exchangeA).sort()).toEqual(['answers', 'requests']);
    const d = runAdmin(['init', '--appliance', 'd'], env);
    expect(d.status, d.stderr).toBe(0);
    expect(d.stdout).toContain(`  exchange     ${dirs.exchangeD} (write_exchange_dir of appliance d; requests/ and answers/`);
    // status --appliance a examines that folder (the entry's, not a variable's).
    const statusA = runAdmin(['status', '--appliance', 'a', '--json'], env);
    expect(statusA.status, statusA.stderr).toBe(0);
    expect(statusA.json['exchange']).toMatchObject({ dir: dirs.exchangeA });
    const b = runAdmin(['init', '--appliance', 'b'], env);
    expect(b.status, b.stderr).toBe(0);
    // The next steps name the appliance, never a PFSENSE_WRITE_* variable the inventory would refuse.
    expect(b.stdout).toContain(`created write directory ${dirs.b} of appliance b`);
    expect(b.stdout).toContain('pfsense-mcp admin trust --appliance b --bundle operator.pub');
    expect(b.stdout).not.toContain('PFSENSE_WRITE_DIR');
    expect(b.stdout).toContain('  PFSENSE_PROFILE=write_protected');
    // Two directories, two server keys: nothing is shared between the appliances.
    expect(existsSync(join(dirs.b, 'anchors'))).toBe(true);
    expect(readFileSync(join(dirs.b, 'keys', 'server-request.pub'), 'utf8')).not.toContain(String(a.json['server_public_key']));
    // status --appliance b is status --dir b with b's settings.
    const status = runAdmin(['status', '--appliance', 'b', '--json'], env);
    expect(status.status, status.stderr).toBe(0);
    expect(status.json['contracts']).toEqual([]);
  });

  it('refuses an unknown name, an appliance without write_dir, --dir with it, and no inventory', () => {
    expect(refused(runAdmin(['status', '--appliance', 'zz', '--json'], env), 'USAGE', 2)).toContain('known: a, b, c, d');
    expect(refused(runAdmin(['status', '--appliance', 'c', '--json'], env), 'NO_WRITE_DIR', 1)).toContain('no write_dir');
    refused(runAdmin(['status', '--appliance', 'a', '--dir', dirs.a, '--json'], env), 'USAGE', 2);
    expect(refused(runAdmin(['init', '--appliance', 'c', '--exchange', join(root, 'x'), '--json'], env), 'USAGE', 2)).toContain(
      'write_exchange_dir',
    );
    expect(refused(runAdmin(['status', '--appliance', 'a', '--json']), 'USAGE', 2)).toContain('PFSENSE_INVENTORY_FILE');
    // The write runtime's commands never guess the appliance from --dir.
    expect(refused(runAdmin(['rollback', '--dir', dirs.a, 'c-1', '--json'], env), 'USAGE', 2)).toContain('--appliance NAME');
  });

  it("refuses an entry whose exchange folder lies in its own write_dir before init, and names the entry's field", () => {
    const nested = join(root, 'inventory-nested.json');
    const entry = (name: string, exchange: string) => ({
      name,
      url: `https://fw-${name}.example.net`,
      api_key_file: join(root, `${name}.key`),
      write_dir: join(root, name),
      write_exchange_dir: exchange,
    });
    const write = (entries: readonly unknown[]): { PFSENSE_INVENTORY_FILE: string } => {
      writeFileSync(nested, JSON.stringify(entries));
      chmodSync(nested, 0o600);
      return { PFSENSE_INVENTORY_FILE: nested };
    };
    const m = entry('m', join(root, 'no', 'such', 'x'));
    // The inventory check refuses it, naming appliance and field: init never lays anything out.
    const n = refused(
      runAdmin(['init', '--appliance', 'n', '--json'], write([entry('n', join(root, 'n', 'x')), m])),
      'CONFIG_INVENTORY_INVALID',
      1,
    );
    expect(n).toContain('appliance 1 (n): write_exchange_dir is or shares a directory with its write_dir');
    expect(existsSync(join(root, 'n'))).toBe(false);
    // An exchange folder init cannot make is said as the entry's field, never as an --exchange never given.
    const noParent = refused(runAdmin(['init', '--appliance', 'm', '--json'], write([m])), 'EXCHANGE_NO_PARENT', 1);
    expect(noParent).toBe(`write_exchange_dir of appliance m: the parent of ${join(root, 'no', 'such', 'x')} does not exist`);
    expect(existsSync(join(root, 'm'))).toBe(false);
  });
});
