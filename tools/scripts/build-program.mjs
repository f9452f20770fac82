#!/usr/bin/env node
// Bundles one runnable project (app or tool) into dist/<root>/main.js with esbuild, so programs start
// fast and tests that spawn them run built JavaScript. better-sqlite3 stays external (native addon).
// The bundle is written to a temp file next to it and renamed into place: nx runs several test tasks at once,
// and one may be spawning the program while another rebuilds it — rename is atomic, so that reader sees the
// old file or the new one, never half of one.
import { build } from 'esbuild';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
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
mkdirSync(dirname(outfile), { recursive: true });
const temp = `${outfile}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
try {
  await build({
    entryPoints: [entry],
    outfile: temp,
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
  chmodSync(temp, 0o755);
  renameSync(temp, outfile);
} finally {
  rmSync(temp, { force: true });
}
process.stdout.write(`built ${program.entry}\n`);
