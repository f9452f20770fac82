// The README's host setup and the operator's approval, all through BUILT programs: `pfsense-mcp admin` (init,
// trust, inbox add) on the host and the real signer (keygen, review, sign --approve) on "another machine".
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAdmin } from './run-admin.js';
import type { ProgramRun } from './run-program.js';
import { runSigner } from './signer-program.js';

export type HostRole = 'plan-authorization' | 'confirmation' | 'reconciliation';
const ROLES: readonly HostRole[] = Object.freeze(['plan-authorization', 'confirmation', 'reconciliation']);

function ok(r: ProgramRun, what: string): ProgramRun {
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
  readonly keys: Readonly<Record<HostRole, string>>;
  cleanup(): void;
}

/**
 * The README's host setup: `admin init`, the operator's `keygen` per role on "another machine" (a separate 0700
 * dir), `admin trust` of each public key (`pinned` roles only).
 */
export function setUpHost(pinned: readonly HostRole[] = ROLES): HostSetup {
  const root = mkdtempSync(join(tmpdir(), 'mcp-write-e2e-'));
  chmodSync(root, 0o700);
  const dir = join(root, 'write');
  const init = ok(runAdmin(['init', '--dir', dir, '--json']), 'admin init');
  const serverPub = String(init.json['server_public_key_file'] ?? join(dir, 'keys', 'server-request.pub'));
  const operatorDir = join(root, 'operator');
  const signedDir = join(operatorDir, 'signed');
  for (const d of [operatorDir, signedDir]) {
    execFileSync('mkdir', ['-m', '700', '-p', d]);
  }
  // What the operator copies to the server host: only the .pub files, into a folder of their own (admin trust
  // refuses a .pub with its private key beside it, docs/DESIGN.md §10).
  const transferDir = join(root, 'transfer');
  execFileSync('mkdir', ['-m', '700', '-p', transferDir]);
  const keys = {} as Record<HostRole, string>;
  for (const role of ROLES) {
    const k = ok(runSigner(['keygen', '--role', role, '--out', operatorDir, '--json']), `keygen ${role}`);
    keys[role] = String(k.json['private_key_file']);
    const pub = join(transferDir, `${role}.pub`);
    copyFileSync(String(k.json['public_key_file']), pub);
    chmodSync(pub, 0o600);
    if (pinned.includes(role)) ok(runAdmin(['trust', '--dir', dir, '--role', role, '--public-key', pub, '--json']), `trust ${role}`);
  }
  return Object.freeze({
    root,
    dir,
    serverPub,
    operatorDir,
    signedDir,
    keys: Object.freeze(keys),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  });
}

/**
 * review with the operator's key of `role` (reads the approval code the signer shows — keyed by that key, so only
 * the operator's machine has it), sign --approve CODE, then `admin inbox add`. Returns the code.
 */
export function approve(host: HostSetup, requestFile: string, role: HostRole, outcome?: 'APPLIED' | 'NOT_APPLIED'): string {
  const review = ok(runSigner(['review', requestFile, '--server-key', host.serverPub, '--key', host.keys[role], '--json']), 'review');
  const prefix = String((review.json['review'] as Record<string, unknown>)['approve_prefix']);
  if (!/^[0-9a-f]{12}$/.test(prefix)) throw new Error('the review with the key showed no approval code');
  const args = [
    'sign',
    requestFile,
    '--key',
    host.keys[role],
    '--server-key',
    host.serverPub,
    '--out',
    host.signedDir,
    '--approve',
    prefix,
    '--json',
  ];
  if (outcome !== undefined) args.push('--outcome', outcome);
  const signed = ok(runSigner(args), 'sign');
  const file = String(signed.json['file']);
  ok(runAdmin(['inbox', 'add', '--dir', host.dir, file, '--json']), 'admin inbox add');
  return prefix;
}
