// Vitest global setup of signer-cli: builds the real bundle (dist/apps/signer-cli/main.js) before any test
// file runs, but only when it is missing or older than any source it is built from — so no test (among them
// "no network or SQLite code in the bundle") ever checks a stale build.
//
// Why not just spawn tools/scripts/build-program.mjs: esbuild writes its outfile in place, and nx runs two
// test tasks at once, so libs/coordinator's suite may be spawning this bundle while we rebuild it. Here the
// bundle is built to a temporary file next to it with esbuild's JS API — the SAME options as
// tools/scripts/build-program.mjs (keep them in step) — and rename()d into place, which is atomic: a
// concurrent reader sees the old file or the new one, never half of one. The coordinator's global setup
// (which must not import across projects) only spawns build-program.mjs when the bundle is missing or
// stale, which after this setup has run it is not.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
export const SIGNER_BUNDLE = join(ROOT, 'dist', 'apps', 'signer-cli', 'main.js');

/** Everything the bundle is built from (the signer's allowed layers, docs/DESIGN.md §2). */
const SOURCE_DIRS = ['apps/signer-cli/src', ...['authorization', 'crypto', 'canonical', 'adapters', 'policy', 'foundation'].map((l) => `libs/${l}/src`)];
const SOURCE_FILES = ['tsconfig.base.json'];

function newestMtimeMs(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs; // a deleted or renamed file changes its directory's mtime
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtimeMs(join(path, entry)));
  return newest;
}

/** True when the bundle is missing or any source is newer than it. */
export function signerBundleStale(): boolean {
  if (!existsSync(SIGNER_BUNDLE)) return true;
  const built = statSync(SIGNER_BUNDLE).mtimeMs;
  const sources = [...SOURCE_DIRS, ...SOURCE_FILES].map((p) => join(ROOT, p));
  return sources.some((p) => newestMtimeMs(p) > built);
}

/** Builds the bundle to a temp file and renames it over the old one (atomic for concurrent readers). */
export async function buildSignerAtomically(): Promise<void> {
  mkdirSync(dirname(SIGNER_BUNDLE), { recursive: true });
  const temp = `${SIGNER_BUNDLE}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
  try {
    await build({
      entryPoints: [join(ROOT, 'apps', 'signer-cli', 'src', 'main.ts')],
      outfile: temp,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: false,
      minify: true,
      keepNames: true,
      legalComments: 'none',
      tsconfig: join(ROOT, 'tsconfig.base.json'),
      external: ['better-sqlite3'],
      banner: {
        js: "#!/usr/bin/env node\nimport { createRequire as __pfsenseCreateRequire } from 'node:module';\nconst require = __pfsenseCreateRequire(import.meta.url);",
      },
      logLevel: 'warning',
    });
    chmodSync(temp, 0o755);
    renameSync(temp, SIGNER_BUNDLE);
  } finally {
    rmSync(temp, { force: true });
  }
}

export default async function setup(): Promise<void> {
  if (signerBundleStale()) await buildSignerAtomically();
}
