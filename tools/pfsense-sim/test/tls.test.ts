import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../src/index.js';
import { raw, type Envelope } from './helpers.js';

const MAIN = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'dist', 'tools', 'pfsense-sim', 'main.js');
let dir: string;
let cert: string;
let key: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pfsense-sim-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-days',
      '2',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
  key = readFileSync(join(dir, 'key.pem'), 'utf8');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('TLS', () => {
  it('serves HTTPS with a test-time certificate that a client verifies', async () => {
    const sim = await startSimulator({ tls: { cert, key } });
    try {
      expect(sim.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const res = await raw(`${sim.url}/api/v2/system/version`, { headers: { 'x-api-key': sim.apiKey }, ca: cert });
      expect(res.status).toBe(200);
      expect((res.json as Envelope).response_id).toBe('SUCCESS');
      // Without the CA the client refuses the self-signed certificate.
      await expect(raw(`${sim.url}/api/v2/system/version`, { headers: { 'x-api-key': sim.apiKey } })).rejects.toMatchObject({
        code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
      });
    } finally {
      await sim.close();
    }
  });

  it('serves HTTPS from the CLI with --tls-cert/--tls-key', async () => {
    const child = spawn(process.execPath, [MAIN, '--port', '0', '--tls-cert', join(dir, 'cert.pem'), '--tls-key', join(dir, 'key.pem')]);
    const exit = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const line = await new Promise<string>((r) => {
      let buf = '';
      child.stdout.on('data', (c: Buffer) => {
        buf += c.toString();
        if (buf.includes('\n')) r(buf.split('\n')[0] ?? '');
      });
    });
    const ready = JSON.parse(line) as { url: string; apiKeyFile: string };
    try {
      expect(ready.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const apiKey = readFileSync(ready.apiKeyFile, 'utf8').trim();
      expect((await raw(`${ready.url}/api/v2/status/system`, { headers: { 'x-api-key': apiKey }, ca: cert })).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      expect(await exit).toBe(0);
    }
  });
});
