// Test helpers for the lab runner against a disposable appliance, played by a separately started simulator
// described by a lab config; the owner's keys and signatures come from the real signer CLI.
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { get as httpsGet } from 'node:https';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runCli } from './run-cli.js';
import { ROOT, SIM_BUNDLE } from './paths.js';

export const SIGNER = join(ROOT, 'dist', 'apps', 'signer-cli', 'main.js');
export const CANDIDATE = 'LAB_APPLIANCE_CANDIDATE';
export const DESCRIPTION_A = 'appliance candidate original A (sentinel 0f3d)';
export const APPLIANCE_ID = 'c0ffee1234abcd';

export interface Sim {
  readonly url: string;
  readonly apiKeyFile: string;
  readonly child: ChildProcess;
}

export type SimAlias = { name: string; type: string; descr: string; address: string[]; detail: string[] };
export const aliases = (extra: SimAlias[] = []): SimAlias[] => [
  { name: 'LAB_OTHER_HOSTS', type: 'host', descr: 'other hosts (sentinel 1a2b)', address: ['10.70.0.1'], detail: ['one'] },
  { name: CANDIDATE, type: 'host', descr: DESCRIPTION_A, address: ['10.71.0.1'], detail: ['candidate'] },
  ...extra,
];

/** Starts the built simulator as its own child, on a free 127.0.0.1 port, with the given start data. */
export async function startSim(
  root: string,
  sims: ChildProcess[],
  name: string,
  data: Record<string, unknown>,
  extraArgs: readonly string[] = [],
): Promise<Sim> {
  const dir = mkdtempSync(join(root, `${name}-`));
  chmodSync(dir, 0o700);
  const dataFile = join(dir, 'data.json');
  writeFileSync(dataFile, JSON.stringify(data), { mode: 0o600 });
  const apiKeyFile = join(dir, 'api-key');
  const child = spawn(
    process.execPath,
    [
      SIM_BUNDLE,
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--api-key-file',
      apiKeyFile,
      '--data',
      dataFile,
      '--exit-on-stdin-eof',
      ...extraArgs,
    ],
    {
      stdio: ['pipe', 'pipe', 'ignore'],
    },
  );
  sims.push(child);
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const end = out.indexOf('\n');
      if (end >= 0) resolve((JSON.parse(out.slice(0, end)) as { url: string }).url.replace(/\/$/, ''));
    });
    child.once('exit', () => reject(new Error('simulator exited')));
  });
  chmodSync(apiKeyFile, 0o600);
  return { url, apiKeyFile, child };
}

export function simData(list: object[], extra: Record<string, unknown> = {}, applianceId = APPLIANCE_ID) {
  return { '/api/v2/firewall/aliases': list, '/api/v2/status/system': { platform: 'pfSense lab', netgate_id: applianceId }, ...extra };
}

export async function counters(sim: Sim, ca?: string): Promise<Record<string, number>> {
  if (ca !== undefined) {
    // An https simulator with a test-time certificate: fetch has no per-request CA, so https.get with one.
    const body = await new Promise<string>((resolve, reject) => {
      httpsGet(`${sim.url}/__sim/counters`, { ca, headers: { 'X-API-Key': readFileSync(sim.apiKeyFile, 'utf8').trim() } }, (res) => {
        let text = '';
        res
          .setEncoding('utf8')
          .on('data', (d: string) => (text += d))
          .on('end', () => resolve(text));
      }).on('error', reject);
    });
    return (JSON.parse(body) as { counters: Record<string, number> }).counters;
  }
  const r = await fetch(`${sim.url}/__sim/counters`, { headers: { 'X-API-Key': readFileSync(sim.apiKeyFile, 'utf8').trim() } });
  return ((await r.json()) as { counters: Record<string, number> }).counters;
}

export const total = (c: Record<string, number>) =>
  Object.entries(c)
    .filter(([k]) => !k.includes('/__sim/'))
    .reduce((n, [, v]) => n + v, 0);
export const aliasWrites = (c: Record<string, number>) => c['PATCH /api/v2/firewall/alias'] ?? 0;

export function signer(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [SIGNER, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export interface Lab {
  readonly dir: string;
  readonly config: string;
  readonly gateKey: string;
  readonly signed: string;
  /** The owner's keys directory (0700), where keygen writes. */
  readonly keys: string;
}

/** A lab directory: owner-only config, the owner's lab-gate key (made with the real signer), its pin. */
export function labDir(root: string, name: string, sim: Sim, fields: Record<string, unknown> = {}): Lab {
  const dir = mkdtempSync(join(root, `lab-${name}-`));
  chmodSync(dir, 0o700);
  const keys = join(dir, 'owner-keys');
  const signed = join(dir, 'signed');
  spawnSync('mkdir', ['-m', '700', keys, signed]);
  const config = join(dir, 'lab.json');
  writeFileSync(
    config,
    JSON.stringify({ url: sim.url, api_key_file: sim.apiKeyFile, candidate_alias: CANDIDATE, allow_http_loopback: true, ...fields }),
    { mode: 0o600 },
  );
  const g = signer(['keygen', '--role', 'lab-gate', '--out', keys, '--json']);
  expect(g.status).toBe(0);
  const out = JSON.parse(g.stdout) as { private_key_file: string; public_key_file: string };
  writeFileSync(join(dir, 'lab-gate.pub'), readFileSync(out.public_key_file), { mode: 0o600 });
  return { dir, config, gateKey: out.private_key_file, signed, keys };
}

/** The owner's reconciliation key (real signer keygen); returns the private key file and the .pub path. */
export function ownerReconciliationKey(lab: Lab): { key: string; pub: string } {
  const g = signer(['keygen', '--role', 'reconciliation', '--out', lab.keys, '--json']);
  expect(g.status).toBe(0);
  const out = JSON.parse(g.stdout) as { private_key_file: string; public_key_file: string };
  return { key: out.private_key_file, pub: out.public_key_file };
}

export async function requestGate(
  lab: Lab,
  scenarios: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ pending_request: string; request_public_key: string }> {
  const r = await runCli(['--request-gate', '--lab-config', lab.config, '--scenarios', scenarios, '--json'], { cwd: lab.dir, env });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const lines = r.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0] as string) as { pending_request: string; request_public_key: string };
}

/** The owner reviews and signs the pending gate request with the real signer; returns the receipt file. */
export function ownerSigns(lab: Lab, pending: string): string {
  const runnerPub = join(lab.dir, 'lab-request.pub');
  const review = signer(['review', pending, '--server-key', runnerPub, '--key', lab.gateKey, '--json']);
  expect(review.status).toBe(0);
  const prefix = (JSON.parse(review.stdout) as { review: { approve_prefix: string } }).review.approve_prefix;
  const sign = signer([
    'sign',
    pending,
    '--key',
    lab.gateKey,
    '--server-key',
    runnerPub,
    '--out',
    lab.signed,
    '--approve',
    prefix,
    '--json',
  ]);
  expect(sign.status).toBe(0);
  return (JSON.parse(sign.stdout) as { file: string }).file;
}
