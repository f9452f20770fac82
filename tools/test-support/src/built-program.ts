// Suites that spawn a built program (dist/…/main.js) make sure it exists and is not older than anything it is
// built from. The build is always tools/scripts/build-program.mjs — one set of esbuild options — which writes a
// temp file and renames it into place, so a suite spawning the bundle concurrently never reads half of one.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const workspaceRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

interface Tables {
  readonly PROGRAMS: Readonly<Record<string, { readonly entry: string }>>;
  readonly LAYERS: readonly { readonly name: string; readonly root: string; readonly mayImport: readonly string[] }[];
}

async function tables(): Promise<Tables> {
  const load = (path: string): Promise<unknown> => import(pathToFileURL(join(workspaceRoot, path)).href);
  const [programs, layers] = (await Promise.all([load('tools/scripts/programs.mjs'), load('tools/layers/layers.mjs')])) as [Tables, Tables];
  return { PROGRAMS: programs.PROGRAMS, LAYERS: layers.LAYERS };
}

export interface ProgramBuild {
  /** The bundle, absolute. */
  readonly bundle: string;
  /** What it is built from, absolute: its own src, the src of every layer it may import, tsconfig.base.json. */
  readonly sources: readonly string[];
}

/** Where program `name` is built to and what from (tools/scripts/programs.mjs and the layering table). */
export async function programBuildOf(name: string): Promise<ProgramBuild> {
  if (typeof name !== 'string' || name === '') throw new TypeError('name must be a program name');
  const { PROGRAMS, LAYERS } = await tables();
  const program = PROGRAMS[name];
  const layer = LAYERS.find((l) => l.name === name);
  if (program === undefined || layer === undefined) throw new TypeError(`name must be a program name (not "${name}")`);
  const roots = [layer.root, ...layer.mayImport.map((n) => LAYERS.find((l) => l.name === n)?.root ?? '')].filter((r) => r !== '');
  return Object.freeze({
    bundle: join(workspaceRoot, program.entry),
    sources: Object.freeze([...roots.map((r) => join(workspaceRoot, r, 'src')), join(workspaceRoot, 'tsconfig.base.json')]),
  });
}

function newestMtimeMs(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs; // a deleted or renamed file changes its directory's mtime
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtimeMs(join(path, entry)));
  return newest;
}

/** True when the bundle is missing or any of its sources is newer than it. */
export async function programStale(name: string): Promise<boolean> {
  const { bundle, sources } = await programBuildOf(name);
  if (!existsSync(bundle)) return true;
  const built = statSync(bundle).mtimeMs;
  return sources.some((p) => newestMtimeMs(p) > built);
}

/** Builds program `name` with tools/scripts/build-program.mjs; throws with its stderr when that fails. */
export function buildProgram(name: string): void {
  if (typeof name !== 'string' || name === '') throw new TypeError('name must be a program name');
  const r = spawnSync(process.execPath, [join(workspaceRoot, 'tools', 'scripts', 'build-program.mjs'), name], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`building ${name} failed:\n${r.stderr}`);
}

/** Builds program `name` only when it is missing or stale (a vitest global setup calls this). */
export async function ensureProgramBuilt(name: string): Promise<void> {
  if (await programStale(name)) buildProgram(name);
}
