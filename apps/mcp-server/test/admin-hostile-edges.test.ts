// What a hostile name, path or file at the edges of `pfsense-mcp admin` can do, through the BUILT program: planted
// inbox names and echoed options reach the terminal escaped; outputs are refused inside the write directory and
// every entry kind a planted output leaves is cleaned; inputs are regular files read with a bound, and a path too
// long is a documented refusal, never INTERNAL.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aliasTargetIdentityDigest } from '@pfsense-mcp/adapters';
import { authorizationRequestName } from '@pfsense-mcp/coordinator';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureBuilt } from './support/built-server.js';
import { runAdmin } from './support/run-admin.js';
import type { ProgramRun } from './support/run-program.js';

vi.setConfig({ testTimeout: 120_000 });
const root = mkdtempSync(join(tmpdir(), 'admin-edges-'));
beforeAll(() => ensureBuilt(), 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
function init(): string {
  n += 1;
  const dir = join(root, `w${n}`);
  const r = runAdmin(['init', '--dir', dir, '--json']);
  expect(r.status, r.stderr).toBe(0);
  return dir;
}

/** No byte a terminal would act on: C0 controls but the line feed, DEL, C1 controls, bidi and zero-width characters. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point.
const TERMINAL_ACTIVE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/u;
function expectTerminalSafe(r: ProgramRun): void {
  expect(r.stdout).not.toMatch(TERMINAL_ACTIVE);
  expect(r.stderr).not.toMatch(TERMINAL_ACTIVE);
}

describe('terminal escapes through names (item 1)', () => {
  it('planted inbox names are listed and cleaned escaped: no title, no clear screen, no carriage return', () => {
    const dir = init();
    const names = [
      '\u001b]0;pwned\u0007x.json',
      '\u001b[2J\u001b[32mALL CHECKS OK\u001b[0m.json',
      'a\rALL CHECKS OK.json',
      'b\u202egnp.json',
    ];
    for (const name of names) writeFileSync(join(dir, 'inbox', name), 'junk', { mode: 0o600 });
    const list = runAdmin(['artifacts', 'list', '--dir', dir]);
    expect(list.status, list.stderr).toBe(0);
    expectTerminalSafe(list);
    expect(list.stdout).toContain('\\u001b]0;pwned\\u0007x.json');
    expect(list.stdout.split('\n').filter((l) => l.includes('inbox/'))).toHaveLength(names.length);
    const clean = runAdmin(['artifacts', 'clean', '--blocking', '--dir', dir]);
    expect(clean.status, clean.stderr).toBe(0);
    expectTerminalSafe(clean);
    expect(readdirSync(join(dir, 'inbox'))).toEqual([]);
  });

  it('an unknown option and a --dir value are echoed escaped on stderr', () => {
    const option = runAdmin(['status', '--\u001b]0;pwned\u0007']);
    expect(option.status).toBe(2);
    expectTerminalSafe(option);
    expect(option.stderr).toContain('unknown option');
    const dir = runAdmin(['status', '--dir', join(root, '\u001b[2Jnowhere\r')]);
    expect(dir.status).toBe(1);
    expectTerminalSafe(dir);
    expect(dir.stderr).toContain('\\u001b[2Jnowhere');
  });
});

describe('outputs inside the write directory (item 2)', () => {
  it('audit export --out and backup --out inside DIR, its inbox or its anchors are refused and create nothing', () => {
    const dir = init();
    const inside = [join(dir, 'inbox', 'x.json'), join(dir, 'outbox', 'y.json'), join(dir, 'anchors', 'z'), join(dir, 'export.jsonl')];
    for (const out of inside) {
      const exported = runAdmin(['audit', 'export', '--dir', dir, '--out', out, '--json']);
      expect(exported.status, out).toBe(1);
      expect(exported.json['error']).toMatchObject({ code: 'OUT_INSIDE_WRITE_DIR' });
      const backup = runAdmin(['backup', '--dir', dir, '--out', out, '--json']);
      expect(backup.status, out).toBe(1);
      expect(backup.json['error']).toMatchObject({ code: 'OUT_INSIDE_WRITE_DIR' });
      expect(existsSync(out)).toBe(false);
    }
    // Through a symbolic link to the inbox, too.
    const link = join(root, `link${n}`);
    symlinkSync(join(dir, 'inbox'), link);
    expect(runAdmin(['backup', '--dir', dir, '--out', join(link, 'b.json'), '--json']).json['error']).toMatchObject({
      code: 'OUT_INSIDE_WRITE_DIR',
    });
    expect(readdirSync(join(dir, 'inbox'))).toEqual([]);
    // Outside, both still work.
    expect(runAdmin(['audit', 'export', '--dir', dir, '--out', join(root, `export${n}.jsonl`)]).status).toBe(0);
    expect(runAdmin(['backup', '--dir', dir, '--out', join(root, `backup${n}`)]).status).toBe(0);
  });

  it('artifacts clean --blocking removes every entry kind planted in the inbox: a directory with files, a FIFO, a dangling symlink', () => {
    const dir = init();
    const inbox = join(dir, 'inbox');
    mkdirSync(join(inbox, 'b.json'), { mode: 0o700 });
    writeFileSync(join(inbox, 'b.json', 'contracts.sqlite'), 'x', { mode: 0o600 });
    mkdirSync(join(inbox, 'b.json', 'deeper'), { mode: 0o700 });
    execFileSync('mkfifo', ['-m', '600', join(inbox, 'fifo.json')]);
    symlinkSync(join(root, 'absent'), join(inbox, 'link.json'));
    const list = runAdmin(['artifacts', 'list', '--dir', dir, '--json']);
    expect(list.status, list.stderr).toBe(0);
    expect((list.json['artifacts'] as Array<{ condition: string }>).map((a) => a.condition)).toEqual(['blocking', 'blocking', 'blocking']);
    const clean = runAdmin(['artifacts', 'clean', '--blocking', '--dir', dir, '--json']);
    expect(clean.status, clean.stderr).toBe(0);
    expect((clean.json['removed'] as unknown[]).length).toBe(3);
    expect(readdirSync(inbox)).toEqual([]);
  });
});

describe('unbounded inputs (item 3)', () => {
  it('audit verify --export of /dev/zero or a FIFO is refused at once (not a regular file), never read', () => {
    const fifo = join(root, `export-fifo${n}`);
    execFileSync('mkfifo', ['-m', '600', fifo]);
    for (const file of ['/dev/zero', fifo]) {
      const r = runAdmin(['audit', 'verify', '--export', file, '--json']);
      expect(r.status, file).toBe(1);
      expect(r.json['error'], file).toMatchObject({ code: 'EXPORT_UNREADABLE' });
    }
  });

  it('an export line beyond the bound is a failure at that line, not a read of the whole line', () => {
    const file = join(root, `long${n}.jsonl`);
    writeFileSync(file, `${'x'.repeat(2 * 1024 * 1024)}\n`, { mode: 0o600 });
    const r = runAdmin(['audit', 'verify', '--export', file, '--json']);
    expect(r.status).toBe(1);
    expect(r.json['failure']).toMatchObject({ table: 'export', row: '1', kind: 'LINE_TOO_LONG' });
  });

  it('--dir of 5,000 characters (relative, or one long component) is a documented refusal, never INTERNAL', () => {
    const relative = Array.from({ length: 1000 }, () => 'abcd').join('/');
    const long = join(root, 'x'.repeat(300));
    for (const dir of [relative.slice(0, 4090), `/${'y'.repeat(4000)}`, long]) {
      const r = runAdmin(['status', '--dir', dir, '--json']);
      expect(r.status, r.stderr).not.toBe(0);
      expect((r.json['error'] as { code: string }).code).not.toBe('INTERNAL');
      expect((r.json['error'] as { code: string }).code).toMatch(/^WRITE_DIR_/);
    }
  });
});

describe('the request limit as a denial of service (item 5)', () => {
  it('admin status names the aliases holding the slots; artifacts clean --requests [--alias NAME] frees them, explicitly', () => {
    const dir = init();
    const keyOf = (alias: string) => aliasTargetIdentityDigest({ alias_name: alias }).slice(0, 16);
    const expiresAt = Date.now() + 3_600_000;
    const hex = (n: number) => n.toString(16).padStart(64, '0');
    // One caller's junk: 3 requests on each of 34 aliases (named as the server names them; the limit counts names).
    const aliases = Array.from({ length: 34 }, (_, i) => `ALIAS_${i}`);
    aliases.forEach((alias, i) => {
      for (let k = 0; k < 3; k += 1) {
        const name = authorizationRequestName({
          aliasKey: keyOf(alias),
          operationId: `op-${hex(i * 8 + k)}`,
          planPrefix: hex(i * 8 + k).slice(0, 16),
          expiresAt,
        });
        writeFileSync(join(dir, 'outbox', name), 'junk', { mode: 0o600 });
      }
    });
    const status = runAdmin(['status', '--dir', dir, '--json']);
    expect(status.status, status.stderr).toBe(0);
    const slots = status.json['request_slots'] as {
      per_alias_limit: number;
      outbox_limit: number;
      outstanding: number;
      aliases: { alias_key: string; outstanding: number; full: boolean }[];
    };
    expect(slots).toMatchObject({ per_alias_limit: 3, outbox_limit: 1000, outstanding: 102 });
    expect(slots.aliases).toHaveLength(34);
    expect(slots.aliases.find((a) => a.alias_key === keyOf('ALIAS_7'))).toEqual({
      alias_key: keyOf('ALIAS_7'),
      outstanding: 3,
      full: true,
    });
    const text = runAdmin(['status', '--dir', dir]).stdout;
    expect(text).toContain(`alias key ${keyOf('ALIAS_7')}  3/3  FULL`);
    expect(text).not.toContain('ALIAS_7');

    // Nothing goes without being asked: a plain clean keeps outstanding requests.
    expect(runAdmin(['artifacts', 'clean', '--dir', dir]).stdout).toContain('nothing to remove');
    expect(runAdmin(['artifacts', 'clean', '--dir', dir, '--alias', 'ALIAS_7']).status).toBe(2);
    const one = runAdmin(['artifacts', 'clean', '--dir', dir, '--requests', '--alias', 'ALIAS_7', '--json']);
    expect(one.status, one.stderr).toBe(0);
    expect((one.json['removed'] as unknown[]).length).toBe(3);
    expect(readdirSync(join(dir, 'outbox'))).toHaveLength(99);
    expect(readdirSync(join(dir, 'outbox')).some((f) => f.includes(keyOf('ALIAS_7')))).toBe(false);
    const all = runAdmin(['artifacts', 'clean', '--dir', dir, '--requests', '--json']);
    expect((all.json['removed'] as unknown[]).length).toBe(99);
    expect(readdirSync(join(dir, 'outbox'))).toEqual([]);
  });
});

describe('dead inbox files (item 4)', () => {
  it('admin status names each blocking inbox file, the calls its name could concern, and the exact command that clears it', () => {
    const dir = init();
    const canonical = `plan-authorization.${'ab'.repeat(8)}.json`;
    symlinkSync(join(root, 'nowhere'), join(dir, 'inbox', canonical));
    writeFileSync(join(dir, 'inbox', 'Upper.json'), 'junk', { mode: 0o600 });
    const r = runAdmin(['status', '--dir', dir]);
    expect(r.status, r.stderr).toBe(0);
    const clear = `pfsense-mcp admin artifacts clean --blocking --dir ${dir}`;
    expect(r.stdout).toContain(
      `inbox/${canonical}  wrong-mode-or-owner: refuses calls needing the plan-authorization of plan ${'ab'.repeat(8)}…; clear it: ${clear}`,
    );
    expect(r.stdout).toContain('inbox/Upper.json  malformed: refuses no call (its name is not canonical, so it is ignored;');
    const json = runAdmin(['status', '--dir', dir, '--json']).json['inbox'] as { blocking_files: { file: string; clear_with: string }[] };
    expect(json.blocking_files.map((b) => [b.file, b.clear_with])).toEqual([
      ['Upper.json', clear],
      [canonical, clear],
    ]);
  });
});
