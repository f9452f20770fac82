#!/usr/bin/env node
// Bundles one runnable project (app or tool) into dist/<root>/main.js with esbuild, so programs start
// fast and tests that spawn them run built JavaScript. better-sqlite3 stays external (native addon).
// A program marked `split` (programs.mjs) is code-split: main.js plus content-hashed chunks beside it, one per
// dynamic import (and the code they share), so each mode parses only what it runs (docs/DESIGN.md §8).
import { build } from 'esbuild';
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { LAYERS } from '../layers/layers.mjs';
import { directLibImports } from './direct-lib-imports.mjs';
import { PROGRAMS, workspaceRoot } from './programs.mjs';

const name = process.argv[2];
const program = PROGRAMS[name];
if (!program) {
  process.stderr.write(`build-program: unknown program "${name}"; known: ${Object.keys(PROGRAMS).join(', ')}\n`);
  process.exit(2);
}
const layer = LAYERS.find((l) => l.name === name);
const outfile = join(workspaceRoot, program.entry);
const entry = join(workspaceRoot, layer.root, 'src', 'main.ts');
if (!existsSync(entry)) {
  // Programs of later issues have no entry yet; `npm run` for them says "not built yet" (run-built.mjs).
  process.stdout.write(`${name}: no src/main.ts yet, nothing to build\n`);
  process.exit(0);
}
const outdir = dirname(outfile);
const tsconfigPaths = JSON.parse(readFileSync(join(workspaceRoot, 'tsconfig.base.json'), 'utf8')).compilerOptions.paths;
const result = await build({
  entryPoints: [entry],
  ...(program.split === true ? { outdir, splitting: true, entryNames: '[name]', chunkNames: '[name]-[hash]', metafile: true, plugins: [directLibImports(workspaceRoot, tsconfigPaths)] } : { outfile }),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: false,
  // Less to parse at start-up (cold start is a product target); names kept for error classes and stacks.
  minify: true,
  keepNames: true,
  legalComments: 'none',
  tsconfig: join(workspaceRoot, 'tsconfig.base.json'),
  external: ['better-sqlite3'],
  // Bundled CommonJS dependencies may call require(); give the ESM bundle one.
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __pfsenseCreateRequire } from 'node:module';\nconst require = __pfsenseCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
if (program.split === true) {
  // Chunks of earlier builds are never loaded again (their hashes changed): remove them, so the directory (and
  // the packed package) holds exactly this build.
  const current = new Set(Object.keys(result.metafile.outputs).map((path) => basename(path)));
  for (const file of readdirSync(outdir)) if (file.endsWith('.js') && !current.has(file)) rmSync(join(outdir, file), { force: true });
}
chmodSync(outfile, 0o755);
process.stdout.write(`built ${program.entry}\n`);
