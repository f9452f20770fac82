// The operator's and the host's side for the write e2e suites, all through BUILT programs: `pfsense-mcp admin`
// (init, trust, inbox add) and the real signer (dist/apps/signer-cli/main.js: keygen, review, sign --approve).
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { assertEra, newClient } from './clients.js';
import { isStale, serverEnv, serverMain, workspaceRoot } from './built-server.js';

export const signerMain = join(workspaceRoot, 'dist', 'apps', 'signer-cli', 'main.js');
export const WRITE_TOOL = 'pfsense_set_firewall_alias_description';

/** Builds the signer when missing or older than its sources (apps/signer-cli/src and the libs it bundles). */
export function ensureSignerBuilt(): void {
  const sources = ['apps/signer-cli/src', ...['authorization', 'crypto', 'canonical', 'adapters', 'policy', 'foundation'].map((l) => `libs/${l}/src`)].map((d) => join(workspaceRoot, d));
  if (isStale(signerMain, sources)) execFileSync(process.execPath, ['tools/scripts/build-program.mjs', 'signer-cli'], { cwd: workspaceRoot, stdio: 'ignore' });
}

export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The last stdout line as JSON ({} when it is not JSON). */
  readonly json: Record<string, unknown>;
}

function run(main: string, args: readonly string[]): CliRun {
  const r = spawnSync(process.execPath, [main, ...args], {
    encoding: 'utf8',
    input: '',
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: process.env['HOME'] ?? '/tmp', NO_COLOR: '1' },
    timeout: 60_000,
  });
  const lines = r.stdout.trim().split('\n');
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(lines[lines.length - 1] ?? '') as Record<string, unknown>;
  } catch {
    // not JSON
  }
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, json };
}

export const admin = (args: readonly string[]): CliRun => run(serverMain, ['admin', ...args]);
export const signer = (args: readonly string[]): CliRun => run(signerMain, args);

function ok(r: CliRun, what: string): CliRun {
  if (r.status !== 0) throw new Error(`${what} failed (${r.status}): ${r.stdout}${r.stderr}`);
  return r;
}

export interface HostSetup {
  readonly root: string;
  /** The write directory (PFSENSE_WRITE_DIR). */
  readonly dir: string;
  /** DIR/keys/server-request.pub, the signer's --server-key. */
  readonly serverPub: string;
  /** The operator's machine: key files from the signer's keygen, and where signed files land. */
  readonly operatorDir: string;
  readonly signedDir: string;
  readonly keys: Readonly<Record<'plan-authorization' | 'confirmation' | 'reconciliation', string>>;
  cleanup(): void;
}

/**
 * The README's host setup: `admin init`, the operator's `keygen` per role on "another machine" (a separate 0700
 * dir), `admin trust` of each public key (`pinned` roles only).
 */
export function setUpHost(pinned: readonly ('plan-authorization' | 'confirmation' | 'reconciliation')[] = ['plan-authorization', 'confirmation', 'reconciliation']): HostSetup {
  const root = mkdtempSync(join(tmpdir(), 'mcp-write-e2e-'));
  chmodSync(root, 0o700);
  const dir = join(root, 'write');
  const init = ok(admin(['init', '--dir', dir, '--json']), 'admin init');
  const serverPub = String(init.json['server_public_key_file'] ?? join(dir, 'keys', 'server-request.pub'));
  const operatorDir = join(root, 'operator');
  const signedDir = join(operatorDir, 'signed');
  for (const d of [operatorDir, signedDir]) {
    execFileSync('mkdir', ['-m', '700', '-p', d]);
  }
  const keys = {} as Record<'plan-authorization' | 'confirmation' | 'reconciliation', string>;
  for (const role of ['plan-authorization', 'confirmation', 'reconciliation'] as const) {
    const k = ok(signer(['keygen', '--role', role, '--out', operatorDir, '--json']), `keygen ${role}`);
    keys[role] = String(k.json['private_key_file']);
    if (pinned.includes(role)) ok(admin(['trust', '--dir', dir, '--role', role, '--public-key', String(k.json['public_key_file']), '--json']), `trust ${role}`);
  }
  return Object.freeze({ root, dir, serverPub, operatorDir, signedDir, keys: Object.freeze(keys), cleanup: () => rmSync(root, { recursive: true, force: true }) });
}

/** review (reads the approval prefix the signer shows), sign --approve, then `admin inbox add`. */
export function approve(host: HostSetup, requestFile: string, role: 'plan-authorization' | 'confirmation' | 'reconciliation', outcome?: 'APPLIED' | 'NOT_APPLIED'): string {
  const review = ok(signer(['review', requestFile, '--server-key', host.serverPub, '--json']), 'review');
  const prefix = String((review.json['review'] as Record<string, unknown>)['approve_prefix']);
  const args = ['sign', requestFile, '--key', host.keys[role], '--server-key', host.serverPub, '--out', host.signedDir, '--approve', prefix, '--json'];
  if (outcome !== undefined) args.push('--outcome', outcome);
  const signed = ok(signer(args), 'sign');
  const file = String(signed.json['file']);
  ok(admin(['inbox', 'add', '--dir', host.dir, file, '--json']), 'admin inbox add');
  return prefix;
}

export interface WriteResult {
  readonly status: string;
  readonly operation_id: string | null;
  readonly contract_id: string | null;
  readonly pending_request: string | null;
  readonly next_step: string;
}

export interface WriteServer {
  readonly client: Client;
  readonly pid: number;
  readonly stderr: () => string;
  /** Resolves once the process is gone (polled: the SDK transport does not expose the exit). */
  gone(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

/** The built server under the v2 SDK client pinned to 2026-07-28, with its pid (to signal it) and its stderr. */
export async function connectWriteServer(env: Record<string, string>): Promise<WriteServer> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [serverMain], env: serverEnv(env), stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = newClient('modern', 'mcp-write-processes');
  await client.connect(transport);
  assertEra(client, 'modern');
  const pid = transport.pid;
  if (pid === null) throw new Error('no pid');
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  return {
    client,
    pid,
    stderr: () => stderr,
    gone: async (timeoutMs = 60_000) => {
      const end = Date.now() + timeoutMs;
      while (alive() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      return !alive();
    },
    close: async () => {
      try {
        await client.close();
      } catch {
        // already gone
      }
    },
  };
}

/** Waits until `condition` holds (polled), failing after `timeoutMs`. */
export async function until(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * One request to the simulator on a fresh connection (no keep-alive: a pooled socket the server closed while
 * idle would reset under load). Returns the status and the parsed JSON body.
 */
export function simRequest(url: string, apiKey: string, method: 'GET' | 'PATCH', path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(
      `${url}${path}`,
      { method, agent: false, headers: { 'X-API-Key': apiKey, ...(payload === undefined ? {} : { 'Content-Type': 'application/json' }) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = null;
          }
          resolve({ status: res.statusCode ?? 0, json });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
