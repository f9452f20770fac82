#!/usr/bin/env node
// Bundles one runnable project (app or tool) into dist/<root>/main.js with esbuild, so programs start
// fast and tests that spawn them run built JavaScript. better-sqlite3 stays external (native addon).
import { build } from 'esbuild';
import { chmodSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { LAYERS } from '../layers/layers.mjs';
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
await build({
  entryPoints: [entry],
  outfile,
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
chmodSync(outfile, 0o755);
process.stdout.write(`built ${program.entry}\n`);
