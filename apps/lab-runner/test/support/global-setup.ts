// Runs once before any test file: the runner's bundle (dist/apps/lab-runner/main.js, which the tests spawn
// and fork as G workers) and the simulator's (every scenario's child) must exist and be newer than their
// sources. `nx run lab-runner:test` builds them first (dependsOn build), so this normally builds nothing.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './paths.js';

const BUNDLES: Readonly<Record<string, { bundle: string; sources: readonly string[] }>> = {
  'pfsense-sim': { bundle: 'dist/tools/pfsense-sim/main.js', sources: ['tools/pfsense-sim/src'] },
  'lab-runner': { bundle: 'dist/apps/lab-runner/main.js', sources: ['apps/lab-runner/src', 'libs', 'tsconfig.base.json'] },
  // The appliance tests sign gate receipts with the real signer.
  'signer-cli': { bundle: 'dist/apps/signer-cli/main.js', sources: ['apps/signer-cli/src', 'libs', 'tsconfig.base.json'] },
};

function newestMtimeMs(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return path.endsWith('.ts') || path.endsWith('.json') ? st.mtimeMs : 0;
  let newest = 0;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'test' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtimeMs(join(path, entry)));
  }
  return newest;
}

export default function setup(): void {
  for (const [program, { bundle, sources }] of Object.entries(BUNDLES)) {
    const file = join(ROOT, bundle);
    const stale = !existsSync(file) || sources.some((s) => newestMtimeMs(join(ROOT, s)) > statSync(file).mtimeMs);
    if (!stale) continue;
    const r = spawnSync(process.execPath, [join(ROOT, 'tools', 'scripts', 'build-program.mjs'), program], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`building ${program} failed:\n${r.stderr}`);
  }
}
