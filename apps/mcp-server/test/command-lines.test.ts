// What a new operator meets first on each command line (issue 36 items 8 and 10), through the BUILT programs: an
// unknown option is named, every --help fits 80 columns and says it prints on stdout (and does), the signer and
// the simulator answer --version, and a first run without configuration names every missing variable at once.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureProgramBuilt } from '@pfsense-mcp/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runBuilt, serverMain, simMain, workspaceRoot } from './support/built-server.js';

const signerMain = join(workspaceRoot, 'dist', 'apps', 'signer-cli', 'main.js');
const labMain = join(workspaceRoot, 'dist', 'apps', 'lab-runner', 'main.js');

const root = mkdtempSync(join(tmpdir(), 'command-lines-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

beforeAll(async () => {
  ensureBuilt();
  await ensureProgramBuilt('signer-cli');
  await ensureProgramBuilt('lab-runner');
}, 300_000);

function run(main: string, args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [main, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: process.env['HOME'] ?? '/tmp', NO_COLOR: '1' },
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Terminal columns of one line: every code point counts one here (the help texts hold no wide characters). */
const columns = (line: string): number => [...line].length;

describe('every --help', () => {
  const programs: [string, string, readonly string[]][] = [
    ['pfsense-mcp', serverMain, ['--help']],
    ['pfsense-mcp admin', serverMain, ['admin', '--help']],
    ['pfsense-mcp-signer', signerMain, ['--help']],
    ['pfsense-mcp-lab', labMain, ['--help']],
    ['pfsense-sim', simMain, ['--help']],
  ];
  it.each(programs)('%s: fits 80 columns, prints on stdout and says so', (_name, main, args) => {
    const r = run(main, args);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    const wide = r.stdout.split('\n').filter((l) => columns(l) > 80);
    expect(wide).toEqual([]);
    expect(r.stdout).toMatch(/print[s]? on stdout|on stdout/);
    expect(r.stdout).not.toMatch(/(options|help)[^.\n]* go to stderr/i);
  });
});

describe('--version', () => {
  it('the signer and the simulator answer it on stdout', () => {
    const signer = run(signerMain, ['--version']);
    expect([signer.status, signer.stdout.trim(), signer.stderr]).toEqual([
      0,
      expect.stringMatching(/^pfsense-mcp-signer \d+\.\d+\.\d+$/),
      '',
    ]);
    const sim = run(simMain, ['--version']);
    expect([sim.status, sim.stdout.trim(), sim.stderr]).toEqual([0, expect.stringMatching(/^pfsense-sim \d+\.\d+\.\d+ /), '']);
  });
});

describe('pfsense-mcp refusals a first run meets', () => {
  it('names the unknown option (never a value after =), exit 2', async () => {
    const bogus = await runBuilt({}, ['--bogus']);
    expect(bogus.code).toBe(2);
    expect(bogus.stdout).toBe('');
    expect(bogus.stderr.trim()).toBe('pfsense-mcp: unknown option --bogus (see --help)');
    const secret = await runBuilt({}, ['--api-key=SECRET-VALUE']);
    expect(secret.stderr.trim()).toBe('pfsense-mcp: unknown option --api-key (see --help)');
    expect(secret.stderr).not.toContain('SECRET-VALUE');
  });

  it('names every missing required variable at once; a tool-name typo gets the nearest name; booleans are exactly true/false', async () => {
    const none = await runBuilt({}, []);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('pfsense-mcp: configuration error: PFSENSE_URL and PFSENSE_API_KEY_FILE are required');
    const base = { PFSENSE_URL: 'https://fw.example.net', PFSENSE_API_KEY_FILE: '/nonexistent/key' };
    const typo = await runBuilt({ ...base, PFSENSE_ALLOWED_TOOLS: 'pfsense_get_firewall_aliasez' }, []);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('"pfsense_get_firewall_aliasez" is not a known tool name (did you mean pfsense_get_firewall_aliases?)');
    for (const value of ['1', 'yes', 'TRUE']) {
      const r = await runBuilt({ ...base, PFSENSE_ALLOW_HTTP_LOOPBACK: value }, []);
      expect(r.code, value).toBe(1);
      expect(r.stderr).toContain('PFSENSE_ALLOW_HTTP_LOOPBACK is not valid (exactly true or false)');
    }
  });
});

/** Runs a program whose stdout reader is gone before it writes (what `| head` does): its exit and its stderr. */
function withReaderGone(main: string, args: readonly string[]): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  const child = spawn(process.execPath, [main, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: process.env['HOME'] ?? '/tmp' },
  });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stderr })));
}

describe('a stdout reader that goes away (EPIPE, issue 36 item 6)', () => {
  it('every command ends quietly with its usual exit code: no stack trace', async () => {
    const dir = join(root, 'w');
    expect(run(serverMain, ['admin', 'init', '--dir', dir]).status).toBe(0);
    const cases: [string, readonly string[]][] = [
      [serverMain, ['admin', 'audit', 'export', '--dir', dir]],
      [serverMain, ['admin', 'status', '--dir', dir]],
      [serverMain, ['admin', '--help']],
      [serverMain, ['--help']],
      [signerMain, ['--help']],
      [labMain, ['--list']],
      [simMain, ['--help']],
    ];
    for (const [main, args] of cases) {
      const r = await withReaderGone(main, args);
      expect({ args, ...r }).toEqual({ args, code: 0, signal: null, stderr: '' });
    }
  });
});
