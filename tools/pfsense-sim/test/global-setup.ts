// Builds dist/tools/pfsense-sim/main.js (the program the CLI tests spawn) when it is missing or older than
// any source file, with the workspace's own build script so the tests run exactly what `npm run build` makes.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const projectDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const workspaceRoot = resolve(projectDir, '..', '..');
const BUILT_MAIN = join(workspaceRoot, 'dist', 'tools', 'pfsense-sim', 'main.js');

function newestSource(dir: string): number {
  return Math.max(...readdirSync(dir).map((f) => statSync(join(dir, f)).mtimeMs));
}

export default function setup(): void {
  let builtAt: number;
  try {
    builtAt = statSync(BUILT_MAIN).mtimeMs;
  } catch {
    builtAt = 0;
  }
  if (builtAt > newestSource(join(projectDir, 'src'))) return;
  execFileSync(process.execPath, [join(workspaceRoot, 'tools', 'scripts', 'build-program.mjs'), 'pfsense-sim'], {
    cwd: workspaceRoot,
    stdio: 'ignore',
  });
}
