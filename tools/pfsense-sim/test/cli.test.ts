import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli.js';
import { FAULT_KIND_NAMES } from '../src/index.js';
import { api, raw } from './helpers.js';

const MAIN = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'dist', 'tools', 'pfsense-sim', 'main.js');
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pfsense-sim-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Started {
  readonly child: ChildProcessWithoutNullStreams;
  readonly ready: { ready: boolean; url: string; apiKeyFile: string };
  readonly stdoutLines: string[];
  readonly stderr: () => string;
  readonly exit: Promise<number | null>;
}

function start(args: string[]): Promise<Started> {
  const child = spawn(process.execPath, [MAIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const stdoutLines: string[] = [];
  const exit = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  child.stderr.on('data', (c: Buffer) => {
    err += c.toString();
  });
  return new Promise((resolveStart, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const lines = out.split('\n');
      out = lines.pop() ?? '';
      for (const line of lines) {
        stdoutLines.push(line);
        if (stdoutLines.length === 1) {
          try {
            resolveStart({ child, ready: JSON.parse(line), stdoutLines, stderr: () => err, exit });
          } catch (e) {
            reject(e);
          }
        }
      }
    });
    void exit.then((code) => reject(new Error(`exited ${code} before ready: ${err}`)));
  });
}

function runToEnd(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((r) => {
    const child = spawn(process.execPath, [MAIN, ...args]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => r({ code, stdout, stderr }));
  });
}

/** Runs the CLI in this process (usage errors and --help never start a server). */
async function runInProcess(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (l) => (stdout += `${l}\n`), stderr: (l) => (stderr += `${l}\n`) });
  return { code, stdout, stderr };
}

describe('pfsense-sim CLI', () => {
  it('prints exactly one JSON ready line, serves with a generated 0600 key, logs to stderr and stops on SIGTERM', async () => {
    const s = await start(['--port', '0', '--seed', 'cli']);
    expect(Object.keys(s.ready)).toEqual(['ready', 'url', 'apiKeyFile']);
    expect(s.ready.ready).toBe(true);
    expect(s.ready.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(statSync(s.ready.apiKeyFile).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(s.ready.apiKeyFile)).mode & 0o777).toBe(0o700);
    const key = readFileSync(s.ready.apiKeyFile, 'utf8').trim();
    const res = await api(s.ready.url, key).get('/api/v2/system/hostname');
    expect(res.env.data).toEqual({ hostname: 'fw-office', domain: 'office.example' });
    s.child.kill('SIGTERM');
    expect(await s.exit).toBe(0);
    expect(s.stdoutLines).toHaveLength(1);
    expect(s.stderr()).toContain('"path":"/api/v2/system/hostname"');
    expect(s.stderr()).not.toContain(key);
    expect(existsSync(s.ready.apiKeyFile)).toBe(false);
  });

  it('uses --api-key-file, --credentials, --auth, --data, --state-file and --fault', async () => {
    const keyFile = join(dir, 'admin.key');
    writeFileSync(keyFile, 'cli-admin-key-0123456789abcdef\n', { mode: 0o600 });
    const creds = join(dir, 'creds.json');
    writeFileSync(creds, JSON.stringify([{ auth: 'key', secret: 'cli-reader-key-0123456789', privileges: ['api-v2-status-system-get'] }]));
    const data = join(dir, 'data.json');
    writeFileSync(data, JSON.stringify({ '/api/v2/system/hostname': { hostname: 'planted', domain: 'example.test' } }));
    const state = join(dir, 'state.json');
    const s = await start([
      '--port',
      '0',
      '--api-key-file',
      keyFile,
      '--credentials',
      creds,
      '--auth',
      'key',
      '--data',
      data,
      '--state-file',
      state,
      '--fault',
      '/api/v2/firewall/alias:PATCH:5xx-after-apply',
    ]);
    try {
      expect(s.ready.apiKeyFile).toBe(keyFile);
      const admin = api(s.ready.url, 'cli-admin-key-0123456789abcdef');
      expect((await admin.get('/api/v2/system/hostname')).env.data).toEqual({ hostname: 'planted', domain: 'example.test' });
      const reader = api(s.ready.url, 'cli-reader-key-0123456789');
      expect((await reader.get('/api/v2/status/system')).status).toBe(200);
      expect((await reader.get('/api/v2/system/hostname')).status).toBe(403);
      const basic = Buffer.from('admin:cli-admin-key-0123456789abcdef').toString('base64');
      expect((await raw(`${s.ready.url}/api/v2/system/hostname`, { headers: { authorization: `Basic ${basic}` } })).status).toBe(401);
      expect((await admin.patch('/api/v2/firewall/alias', { id: 0, descr: 'via cli' })).status).toBe(500);
      expect(JSON.parse(readFileSync(state, 'utf8')).paths['/api/v2/firewall/aliases'].value[0].descr).toBe('via cli');
    } finally {
      s.child.kill('SIGINT');
      expect(await s.exit).toBe(0);
    }
    expect(existsSync(keyFile)).toBe(true);
  });

  it('with --exit-on-stdin-eof stops when its parent closes stdin (it never outlives the parent), and not without it', async () => {
    const lifeline = await start(['--port', '0', '--exit-on-stdin-eof']);
    lifeline.child.stdin.end();
    expect(await lifeline.exit).toBe(0);
    expect(existsSync(lifeline.ready.apiKeyFile)).toBe(false);

    const plain = await start(['--port', '0']);
    plain.child.stdin.end();
    const key = readFileSync(plain.ready.apiKeyFile, 'utf8').trim();
    expect((await api(plain.ready.url, key).get('/api/v2/system/hostname')).env.code).toBe(200);
    plain.child.kill('SIGTERM');
    expect(await plain.exit).toBe(0);
  });

  it('documents every flag and fault kind in --help', async () => {
    const { code, stdout } = await runInProcess(['--help']);
    expect(code).toBe(0);
    for (const flag of [
      '--exit-on-stdin-eof',
      '--port',
      '--host',
      '--allow-remote',
      '--api-key-file',
      '--credentials',
      '--auth',
      '--data',
      '--state-file',
      '--seed',
      '--tls-cert',
      '--tls-key',
      '--fault',
      '/__sim/faults',
      '/__sim/counters',
    ]) {
      expect(stdout).toContain(flag);
    }
    for (const kind of FAULT_KIND_NAMES) expect(stdout).toContain(kind);
  });

  it('refuses a non-loopback host without --allow-remote, and bad flags, with exit code 2 and nothing on stdout', async () => {
    const remote = await runInProcess(['--host', '0.0.0.0', '--port', '0']);
    expect(remote.code).toBe(2);
    expect(remote.stderr).toContain('loopback');
    expect(remote.stdout).toBe('');
    const cases: [string[], string][] = [
      [['--port', 'x'], '--port'],
      [['--port', '65536'], '--port'],
      [['--auth', 'magic'], '--auth'],
      [['--fault', '/x:GET:explode'], '--fault'],
      [['--tls-cert', 'only-cert.pem'], '--tls'],
      [['--bogus'], 'bogus'],
      [['--seed', ''], '--seed'],
    ];
    for (const [args, mentions] of cases) {
      const r = await runInProcess(args);
      expect([args, r.code, r.stdout]).toEqual([args, 2, '']);
      expect(r.stderr, args.join(' ')).toContain(mentions);
    }
    // The built program maps a usage error to its exit code the same way.
    const spawned = await runToEnd(['--bogus']);
    expect(spawned.code).toBe(2);
    expect(spawned.stdout).toBe('');
    expect(spawned.stderr).toContain('bogus');
  });

  it('echoes a hostile option escaped: no escape sequence, bell or carriage return reaches the terminal', async () => {
    const r = await runToEnd(['--\u001b]0;pwned\u0007\r\u202e']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('\\u001b]0;pwned\\u0007\\u000d\\u202e');
    // eslint-disable-next-line no-control-regex -- finding control characters is the point.
    expect(r.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/u);
  });

  it('survives a repeated SIGINT (npm run sim forwards Ctrl-C): exit code 0 and the generated key file is gone', async () => {
    const s = await start(['--port', '0']);
    expect(existsSync(s.ready.apiKeyFile)).toBe(true);
    s.child.kill('SIGINT');
    s.child.kill('SIGINT');
    const code = await s.exit;
    expect(code, s.stderr()).toBe(0);
    expect(existsSync(s.ready.apiKeyFile)).toBe(false);
    expect(existsSync(dirname(s.ready.apiKeyFile))).toBe(false);
  });

  it('keeps its signal handlers until the simulator has closed, ignoring repeats', async () => {
    const before = new Set([...process.listeners('SIGINT'), ...process.listeners('SIGTERM')]);
    let ready!: (line: string) => void;
    const readyLine = new Promise<string>((r) => (ready = r));
    const stderr: string[] = [];
    const running = runCli(['--port', '0'], { stdout: (line) => ready(line), stderr: (line) => stderr.push(line) });
    const { apiKeyFile } = JSON.parse(await readyLine) as { apiKeyFile: string };
    const added = process.listeners('SIGINT').filter((l) => !before.has(l));
    expect(added).toHaveLength(1);
    expect(process.listeners('SIGTERM').filter((l) => !before.has(l))).toHaveLength(1);
    // Call the CLI's own handler (emitting a real signal would also reach the test runner's handlers).
    const onInt = added[0] as (signal: NodeJS.Signals) => void;
    onInt('SIGINT');
    // The key is removed synchronously by the first signal; the handlers are still there for a second one.
    expect(existsSync(apiKeyFile)).toBe(false);
    expect(process.listeners('SIGINT')).toContain(onInt);
    onInt('SIGINT');
    expect(await running).toBe(0);
    expect(process.listeners('SIGINT').filter((l) => !before.has(l))).toEqual([]);
    expect(process.listeners('SIGTERM').filter((l) => !before.has(l))).toEqual([]);
    expect(stderr.filter((l) => l.includes('"stopping"'))).toHaveLength(1);
  });
});
