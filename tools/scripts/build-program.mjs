#!/usr/bin/env node
// Bundles one runnable project (app or tool) into dist/<root>/main.js with esbuild, so programs start
// fast and tests that spawn them run built JavaScript. better-sqlite3 stays external (native addon).
// The bundle is written to a temp file next to it and renamed into place: nx runs several test tasks at once,
// and one may be spawning the program while another rebuilds it — rename is atomic, so that reader sees the
// old file or the new one, never half of one.
// A program marked `split` (programs.mjs) is code-split: main.js plus content-hashed chunks beside it, one per
// dynamic import (and the code they share), so each mode parses only what it runs (docs/DESIGN.md §8). Its build
// goes to a temp directory; the chunks are renamed into place first (a new hash is a new name, an unchanged one
// the same bytes), main.js last, so a program started meanwhile loads one build or the other, never a mix.
import { build } from 'esbuild';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { LAYERS } from '../layers/layers.mjs';
import { directLibImports } from './direct-lib-imports.mjs';
import { PROGRAMS, workspaceRoot } from './programs.mjs';

/** An earlier build's chunk is removed only this long after it was written: a program started from it has loaded it. */
const STALE_CHUNK_AGE_MS = 10 * 60 * 1000;

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
mkdirSync(outdir, { recursive: true });
const temp = `${outfile}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
const tsconfigPaths = JSON.parse(readFileSync(join(workspaceRoot, 'tsconfig.base.json'), 'utf8')).compilerOptions.paths;
try {
  await build({
    entryPoints: [entry],
    ...(program.split === true
      ? {
          outdir: temp,
          splitting: true,
          entryNames: '[name]',
          chunkNames: '[name]-[hash]',
          plugins: [directLibImports(workspaceRoot, tsconfigPaths)],
        }
      : { outfile: temp }),
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
    const built = readdirSync(temp);
    for (const file of built) if (file !== 'main.js') renameSync(join(temp, file), join(outdir, file));
    chmodSync(join(temp, 'main.js'), 0o755);
    renameSync(join(temp, 'main.js'), outfile);
    // Chunks of earlier builds are never loaded by this one: once old enough, they go, so the directory (and the
    // packed package) holds this build only.
    const current = new Set(built);
    for (const file of readdirSync(outdir)) {
      const path = join(outdir, file);
      if (file.endsWith('.js') && !current.has(file) && Date.now() - statSync(path).mtimeMs > STALE_CHUNK_AGE_MS)
        rmSync(path, { force: true });
    }
  } else {
    chmodSync(temp, 0o755);
    renameSync(temp, outfile);
  }
} finally {
  rmSync(temp, { recursive: true, force: true });
}
process.stdout.write(`built ${program.entry}\n`);
