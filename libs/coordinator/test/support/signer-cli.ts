// The operator's side through the REAL signer: the bundle dist/apps/signer-cli/main.js (built once by
// test/support/global-setup.ts with the workspace's build script) is spawned with plain node, as an
// operator would run it. Keys come from its own `keygen`; the server pins their public halves.
import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readEd25519PrivateKeyFile } from '@pfsense-mcp/crypto';
import { keyPair } from './world.js';
import type { KeyPair, Keys } from './world.js';

const ROOT = resolve(import.meta.dirname, '..', '..', '..', '..');
export const SIGNER_MAIN = join(ROOT, 'dist', 'apps', 'signer-cli', 'main.js');

/** Fails clearly when the bundle is missing (test/support/global-setup.ts builds it before any test file). */
export function assertSignerBuilt(): void {
  if (!existsSync(SIGNER_MAIN)) throw new Error(`signer bundle missing: ${SIGNER_MAIN} (built by the global setup)`);
}

export interface SignerRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The --json object (undefined if stdout is not JSON). */
  readonly json: Record<string, unknown> | undefined;
}

export function runSigner(args: readonly string[]): SignerRun {
  // Room for the review of an alias at the size bound (--json carries every member; --members lists them).
  const r = spawnSync(process.execPath, [SIGNER_MAIN, ...args], {
    encoding: 'utf8',
    input: '',
    env: { ...process.env, NO_COLOR: '1' },
    maxBuffer: 64 * 1024 * 1024,
  });
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(r.stdout) as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, json };
}

/** The operator's key directory: keys made by the signer's keygen (0700 dir, 0600 keys). */
export interface OperatorKeyring {
  readonly dir: string;
  readonly keys: Keys;
  readonly files: Readonly<
    Record<'plan-authorization' | 'confirmation' | 'reconciliation' | 'server-request', { key: string; pub: string }>
  >;
  remove(): void;
}

/** The signer run without blocking, so independent runs (the four keygens) overlap. */
function runSignerAsync(args: readonly string[]): Promise<SignerRun> {
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      [SIGNER_MAIN, ...args],
      { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => {
        let json: Record<string, unknown> | undefined;
        try {
          json = JSON.parse(stdout) as Record<string, unknown>;
        } catch {
          json = undefined;
        }
        done({ status: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr, json });
      },
    );
    child.stdin?.end();
  });
}

export async function operatorKeyring(): Promise<OperatorKeyring> {
  const dir = mkdtempSync(join(tmpdir(), 'coordinator-signer-'));
  chmodSync(dir, 0o700);
  const roles = ['plan-authorization', 'confirmation', 'reconciliation', 'server-request'] as const;
  const files = {} as Record<(typeof roles)[number], { key: string; pub: string }>;
  const pairs = {} as Record<(typeof roles)[number], KeyPair>;
  const runs = await Promise.all(roles.map((role) => runSignerAsync(['keygen', '--role', role, '--out', dir, '--json'])));
  roles.forEach((role, i) => {
    const r = runs[i] as SignerRun;
    if (r.status !== 0 || r.json === undefined) throw new Error(`keygen ${role} failed: ${r.stdout}${r.stderr}`);
    const key = String(r.json.private_key_file);
    files[role] = { key, pub: String(r.json.public_key_file) };
    pairs[role] = readEd25519PrivateKeyFile(key);
  });
  const keys: Keys = {
    authorization: pairs['plan-authorization'],
    confirmation: pairs.confirmation,
    reconciliation: pairs.reconciliation,
    server: pairs['server-request'],
    stranger: keyPair(),
    retired: keyPair(),
  };
  return { dir, keys, files, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * review FILE with the operator's key of `role`, then sign it with the approval code review displayed
 * (`--approve`: the keyed code, docs/DESIGN.md §10), output into `outDir` (the server's inbox: the operator
 * copies the signed file there). Returns the sign run.
 */
export function reviewAndSign(
  ring: OperatorKeyring,
  role: 'plan-authorization' | 'confirmation' | 'reconciliation',
  requestFile: string,
  outDir: string,
  outcome?: 'APPLIED' | 'NOT_APPLIED',
): SignerRun & { readonly file: string; readonly review: Record<string, unknown> } {
  const review = runSigner([
    'review',
    requestFile,
    '--server-key',
    ring.files['server-request'].pub,
    '--key',
    ring.files[role].key,
    '--json',
  ]);
  if (review.status !== 0 || review.json === undefined)
    throw new Error(`review refused (${review.status}): ${review.stdout}${review.stderr}`);
  const prefix = (review.json.review as Record<string, unknown>).approve_prefix;
  if (typeof prefix !== 'string' || !/^[0-9a-f]{12}$/.test(prefix)) throw new Error('review with the key showed no approval code');
  const args = [
    'sign',
    requestFile,
    '--key',
    ring.files[role].key,
    '--server-key',
    ring.files['server-request'].pub,
    '--out',
    outDir,
    '--approve',
    prefix,
    '--json',
  ];
  if (outcome !== undefined) args.push('--outcome', outcome);
  const signed = runSigner(args);
  if (signed.status !== 0 || signed.json === undefined)
    throw new Error(`sign refused (${signed.status}): ${signed.stdout}${signed.stderr}`);
  return { ...signed, file: String(signed.json.file), review: review.json.review as Record<string, unknown> };
}
