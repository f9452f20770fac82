// Runs once before any test file: builds the real signer bundle (dist/apps/signer-cli/main.js) with the
// workspace's build script, so the test files that spawn it (in parallel workers) never race its build or
// run a stale bundle.
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

export default function setup(): void {
  const root = resolve(import.meta.dirname, '..', '..', '..', '..');
  const r = spawnSync(process.execPath, [join(root, 'tools', 'scripts', 'build-program.mjs'), 'signer-cli'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`signer build failed: ${r.stderr}`);
}
