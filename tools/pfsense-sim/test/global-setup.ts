// Builds dist/tools/pfsense-sim/main.js (the program the CLI tests spawn) when it is missing or older than
// any source file — the same esbuild bundle the workspace build produces.
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const projectDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const BUILT_MAIN = resolve(projectDir, '..', '..', 'dist', 'tools', 'pfsense-sim', 'main.js');

function newestSource(dir: string): number {
  return Math.max(...readdirSync(dir).map((f) => statSync(join(dir, f)).mtimeMs));
}

export default async function setup(): Promise<void> {
  const srcDir = join(projectDir, 'src');
  let builtAt: number;
  try {
    builtAt = statSync(BUILT_MAIN).mtimeMs;
  } catch {
    builtAt = 0;
  }
  if (builtAt > newestSource(srcDir)) return;
  mkdirSync(dirname(BUILT_MAIN), { recursive: true });
  await build({
    entryPoints: [join(srcDir, 'main.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: BUILT_MAIN,
    logLevel: 'warning',
  });
}
