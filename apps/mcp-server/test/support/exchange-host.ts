// The exchange-folder setup and the operator's `approve`, all through BUILT programs, counting the human actions
// the README asks for: host setup = `admin init --exchange`, `keygen --role operator`, copying operator.pub to the
// host, `admin trust --bundle`, copying server-request.pub to the operator, the client environment (6); one change =
// two `approve` invocations and the two codes typed at their prompts (4).
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAdmin } from './run-admin.js';
import type { ProgramRun } from './run-program.js';
import { runSigner, signerMain } from './signer-program.js';
import type { WriteResult } from './write-result.js';
import { expect } from 'vitest';

function ok(r: ProgramRun, what: string): ProgramRun {
  if (r.status !== 0) throw new Error(`${what} failed (${r.status}): ${r.stdout}${r.stderr}`);
  return r;
}

export interface ExchangeHost {
  readonly root: string;
  readonly dir: string;
  readonly exchange: string;
  /** The operator's machine: KEYDIR (from `keygen --role operator`) and the server's public key copied there. */
  readonly keysDir: string;
  readonly serverPub: string;
  /** The client environment lines `admin init` printed. */
  readonly environment: Readonly<Record<string, string>>;
  /** Human actions so far (setup commands, file copies, approve invocations, typed codes). */
  readonly actions: string[];
  cleanup(): void;
}

export function setUpExchangeHost(): ExchangeHost {
  const root = mkdtempSync(join(tmpdir(), 'mcp-exchange-e2e-'));
  chmodSync(root, 0o700);
  const dir = join(root, 'write');
  const exchange = join(root, 'exchange');
  const operator = join(root, 'operator');
  const keysDir = join(operator, 'keys');
  const transfer = join(root, 'transfer');
  // Machine preparation, not a product step: the operator's home and a folder the bundle is copied into.
  for (const d of [operator, keysDir, transfer]) execFileSync('mkdir', ['-m', '700', '-p', d]);
  const actions: string[] = [];

  const init = ok(runAdmin(['init', '--dir', dir, '--exchange', exchange, '--json']), 'admin init --exchange');
  actions.push('admin init --exchange');
  const keygen = ok(runSigner(['keygen', '--role', 'operator', '--out', keysDir, '--json']), 'keygen --role operator');
  actions.push('keygen --role operator');
  const bundle = join(transfer, 'operator.pub');
  copyFileSync(String(keygen.json['bundle_file']), bundle);
  actions.push('copy operator.pub to the host');
  ok(runAdmin(['trust', '--dir', dir, '--bundle', bundle, '--json']), 'admin trust --bundle');
  actions.push('admin trust --bundle');
  const serverPub = join(operator, 'server-request.pub');
  copyFileSync(String(init.json['server_public_key_file']), serverPub);
  chmodSync(serverPub, 0o600);
  actions.push('copy server-request.pub to the operator');
  const environment = init.json['environment'] as Record<string, string>;
  actions.push('client environment');
  return Object.freeze({
    root,
    dir,
    exchange,
    keysDir,
    serverPub,
    environment: Object.freeze({ ...environment }),
    actions,
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  });
}

/** The operator's machine for a fleet: one `keygen --role operator` (the same keys pinned on every appliance). */
export interface FleetOperator {
  readonly root: string;
  readonly keysDir: string;
  /** operator.pub, copied to the host. */
  readonly bundle: string;
}

export function setUpFleetOperator(root: string): FleetOperator {
  const keysDir = join(root, 'operator', 'keys');
  const transfer = join(root, 'transfer');
  for (const d of [keysDir, transfer]) execFileSync('mkdir', ['-m', '700', '-p', d]);
  const keygen = ok(runSigner(['keygen', '--role', 'operator', '--out', keysDir, '--json']), 'keygen --role operator');
  const bundle = join(transfer, 'operator.pub');
  copyFileSync(String(keygen.json['bundle_file']), bundle);
  return Object.freeze({ root, keysDir, bundle });
}

/**
 * One inventory appliance's exchange-folder setup with `admin … --appliance NAME` (`env` names the inventory):
 * `init` makes its write_dir and write_exchange_dir, `trust --bundle` pins the operator's keys, and its
 * server-request.pub is copied to the operator — what `approve` on that appliance's folder needs.
 */
export function setUpApplianceExchange(env: Record<string, string>, appliance: string, operator: FleetOperator): ExchangeHost {
  const init = ok(runAdmin(['init', '--appliance', appliance, '--json'], env), `admin init --appliance ${appliance}`);
  ok(runAdmin(['trust', '--appliance', appliance, '--bundle', operator.bundle, '--json'], env), `admin trust --appliance ${appliance}`);
  const serverPub = join(operator.root, 'operator', `server-request-${appliance}.pub`);
  copyFileSync(String(init.json['server_public_key_file']), serverPub);
  chmodSync(serverPub, 0o600);
  return Object.freeze({
    root: operator.root,
    dir: String(init.json['dir']),
    exchange: String((init.json['paths'] as { exchange: string }).exchange),
    keysDir: operator.keysDir,
    serverPub,
    environment: Object.freeze({ ...(init.json['environment'] as Record<string, string>) }),
    actions: [],
    cleanup: () => undefined,
  });
}

export interface ApproveRun extends ProgramRun {
  /** The codes the operator typed at the prompts. */
  readonly typed: readonly string[];
  /** When the program exited (ms since the epoch). */
  readonly endedAt: number;
}

/**
 * `pfsense-mcp-signer approve EXCHANGE/requests --keys KEYDIR --server-key PUB`, its stdin a pipe: each time a
 * prompt shows the code to type, the "operator" types exactly that code (one human action each).
 */
export function approveOnOperator(
  host: ExchangeHost,
  options: { readonly path?: string; readonly extra?: readonly string[] } = {},
): Promise<ApproveRun> {
  host.actions.push('approve');
  const path = options.path ?? join(host.exchange, 'requests');
  const args = ['approve', path, '--keys', host.keysDir, '--server-key', host.serverPub, ...(options.extra ?? [])];
  const child = spawn(process.execPath, [signerMain, ...args], {
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', NO_COLOR: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const typed: string[] = [];
  const answerPrompt = (): void => {
    const prompts = [...stderr.matchAll(/Type the code ([0-9a-f]{12}): /g)];
    const next = prompts[typed.length];
    if (next === undefined) return;
    const code = next[1] as string;
    typed.push(code);
    host.actions.push('type the code');
    child.stdin.write(`${code}\n`);
  };
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString('utf8');
    answerPrompt();
  });
  return new Promise((resolve) => {
    child.on('close', (status) => {
      resolve({ status, stdout, stderr, json: {}, typed, endedAt: Date.now() });
    });
  });
}

/**
 * requested → `approve` (authorization) → awaiting_confirmation → `approve` (confirmation), each through `host`'s
 * exchange folder: the next call with the same arguments executes.
 */
export async function approveBothThroughExchange(
  host: ExchangeHost,
  call: (args: Record<string, unknown>) => Promise<WriteResult>,
  args: Record<string, unknown>,
): Promise<{ requested: WriteResult; reviews: string }> {
  const requested = await call(args);
  expect(requested.status).toBe('requested');
  const first = await approveOnOperator(host);
  expect(first.status, first.stderr).toBe(0);
  const authorized = await call(args);
  expect(authorized.status).toBe('awaiting_confirmation');
  const second = await approveOnOperator(host);
  expect(second.status, second.stderr).toBe(0);
  return { requested, reviews: first.stdout + second.stdout };
}
