// Runs once before any test file: makes sure the real signer bundle (dist/apps/signer-cli/main.js) exists and
// is not older than any source it is built from, so the chain and reconciliation tests never run a stale
// signer — and the parallel test files never race its build.
//
// The build is spawned (`node tools/scripts/build-program.mjs signer-cli`) only when the bundle is missing
// or stale. That script writes the bundle in place, which a concurrently running signer-cli suite could
// read half-written; apps/signer-cli's own global setup therefore builds atomically (temp file + rename)
// and runs whenever the signer's sources change, so by the time both suites run the bundle is current and
// this setup builds nothing. We do not import that helper: it belongs to another project (no cross-project
// test imports), and duplicating its esbuild options here would let the two drift.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..', '..', '..');
const BUNDLE = join(ROOT, 'dist', 'apps', 'signer-cli', 'main.js');
/** What the bundle is built from: the signer and the libraries it may import (docs/DESIGN.md §2). */
const SOURCES = [
  'apps/signer-cli/src',
  ...['authorization', 'crypto', 'canonical', 'adapters', 'policy', 'foundation'].map((l) => `libs/${l}/src`),
  'tsconfig.base.json',
];

function newestMtimeMs(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs; // a removed or renamed file changes its directory's mtime
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtimeMs(join(path, entry)));
  return newest;
}

export function signerBundleStale(): boolean {
  if (!existsSync(BUNDLE)) return true;
  const built = statSync(BUNDLE).mtimeMs;
  return SOURCES.some((p) => newestMtimeMs(join(ROOT, p)) > built);
}

export default function setup(): void {
  if (!signerBundleStale()) return;
  const r = spawnSync(process.execPath, [join(ROOT, 'tools', 'scripts', 'build-program.mjs'), 'signer-cli'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`signer build failed: ${r.stderr}`);
}
