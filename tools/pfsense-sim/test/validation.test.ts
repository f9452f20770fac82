import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli.js';
import { controlAccess, isLoopbackPeer } from '../src/control-gate.js';
import { startSimulator, type SimulatorOptions } from '../src/index.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pfsense-sim-validation-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEY = 'validation-admin-key-0123456789';

describe('startSimulator option checks', () => {
  it('refuses a bad maxBodyBytes, now or tls, naming the option', async () => {
    const bad: [unknown, string][] = [
      [{ maxBodyBytes: 0 }, '"maxBodyBytes"'],
      [{ maxBodyBytes: -1 }, '"maxBodyBytes"'],
      [{ maxBodyBytes: 1.5 }, '"maxBodyBytes"'],
      [{ maxBodyBytes: Number.NaN }, '"maxBodyBytes"'],
      [{ maxBodyBytes: 2 ** 53 }, '"maxBodyBytes"'],
      [{ maxBodyBytes: '1024' }, '"maxBodyBytes"'],
      [{ now: new Date() }, '"now"'],
      [{ now: 'now' }, '"now"'],
      [{ keepAliveTimeoutMs: -1 }, '"keepAliveTimeoutMs"'],
      [{ keepAliveTimeoutMs: 1.5 }, '"keepAliveTimeoutMs"'],
      [{ keepAliveTimeoutMs: 600_001 }, '"keepAliveTimeoutMs"'],
      [{ keepAliveTimeoutMs: '5' }, '"keepAliveTimeoutMs"'],
      [{ tls: null }, '"tls"'],
      [{ tls: 'cert.pem' }, '"tls"'],
      [{ tls: {} }, '"tls"'],
      [{ tls: { cert: 'PEM' } }, '"tls"'],
      [{ tls: { cert: '', key: 'PEM' } }, '"tls"'],
      [{ tls: { cert: 'PEM', key: 42 } }, '"tls"'],
      [null, '"options"'],
    ];
    for (const [options, names] of bad) {
      await expect(startSimulator(options as SimulatorOptions), JSON.stringify(options)).rejects.toThrow(names);
    }
    const ok = await startSimulator({ apiKey: KEY, maxBodyBytes: 1, now: () => new Date(0) });
    await ok.close();
  });
});

describe('--api-key-file checks', () => {
  function keyFile(name: string, mode: number): string {
    const file = join(dir, name);
    writeFileSync(file, `${KEY}\n`);
    chmodSync(file, mode); // exact mode, whatever the umask
    return file;
  }

  it('reads an owner-only 0600 or 0400 regular file', async () => {
    for (const [name, mode] of [
      ['k600', 0o600],
      ['k400', 0o400],
    ] as const) {
      const sim = await startSimulator({ apiKeyFile: keyFile(name, mode) });
      try {
        expect(sim.apiKey).toBe(KEY);
      } finally {
        await sim.close();
      }
    }
  });

  it('refuses a key file others can read or write, a symlink and a directory, with a clear error', async () => {
    const target = keyFile('target', 0o600);
    const link = join(dir, 'link');
    symlinkSync(target, link);
    const folder = join(dir, 'folder');
    mkdirSync(folder, { mode: 0o700 });
    const cases: [string, RegExp][] = [
      [keyFile('k644', 0o644), /owner-only \(mode 0600 or 0400\), not 0644/],
      [keyFile('k660', 0o660), /owner-only .*not 0660/],
      [keyFile('k700', 0o700), /owner-only .*not 0700/],
      [link, /regular file, not a symlink/],
      [folder, /regular file/],
    ];
    for (const [file, message] of cases) {
      await expect(startSimulator({ apiKeyFile: file }), file).rejects.toMatchObject({
        name: 'ApiKeyFileError',
        path: file,
        message: expect.stringMatching(message),
      });
    }
    // The CLI reports it as a start failure (exit 1) without the key.
    let stderr = '';
    let stdout = '';
    const code = await runCli(['--port', '0', '--api-key-file', join(dir, 'k644')], {
      stdout: (l) => (stdout += l),
      stderr: (l) => (stderr += l),
    });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('ApiKeyFileError: API key file must be owner-only');
    expect(stderr).not.toContain(KEY);
  });
});

describe('control endpoint gate', () => {
  it('treats only 127.0.0.0/8, IPv4-mapped 127.x and ::1 peers as loopback', () => {
    for (const peer of ['127.0.0.1', '127.1.2.3', '::ffff:127.0.0.1', '::1']) expect(isLoopbackPeer(peer), peer).toBe(true);
    for (const peer of ['10.0.0.1', '::ffff:10.0.0.1', '192.168.1.1', '0.0.0.0', '::', 'fe80::1', '127.0.0.1.example', '', undefined]) {
      expect(isLoopbackPeer(peer), String(peer)).toBe(false);
    }
  });

  it('hides the endpoint from a non-loopback peer even with the admin key, and needs the exact key on loopback', () => {
    expect(controlAccess('192.0.2.10', KEY, KEY)).toBe('not-found');
    expect(controlAccess('::ffff:192.0.2.10', KEY, KEY)).toBe('not-found');
    expect(controlAccess(undefined, KEY, KEY)).toBe('not-found');
    expect(controlAccess('127.0.0.1', undefined, KEY)).toBe('unauthorized');
    expect(controlAccess('127.0.0.1', `${KEY}x`, KEY)).toBe('unauthorized');
    expect(controlAccess('127.0.0.1', KEY.slice(0, -1), KEY)).toBe('unauthorized');
    expect(controlAccess('127.0.0.1', [KEY, KEY], KEY)).toBe('unauthorized');
    expect(controlAccess('127.0.0.1', KEY, KEY)).toBe('allowed');
    expect(controlAccess('::1', KEY, KEY)).toBe('allowed');
  });
});
