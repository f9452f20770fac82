// Test support shared by every suite that runs real child processes (crash and race tests): the child
// fixture is bundled by esbuild into the workspace's tmp/ (a plain `node` cannot import TypeScript; the
// external native better-sqlite3 then resolves from the workspace node_modules) and run with `node`. The job
// goes in through one environment variable as JSON; the child answers with JSON lines on stdout.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const workspaceRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export interface BuiltChild {
  readonly script: string;
  remove(): void;
}

/** Bundles `entry` (a .ts fixture) into tmp/<group>/build-XXXX/<name>.mjs. */
export async function buildChildScript(entry: string, group: string): Promise<BuiltChild> {
  const base = join(workspaceRoot, 'tmp', group);
  mkdirSync(base, { recursive: true });
  const outDir = mkdtempSync(join(base, 'build-'));
  const script = join(outDir, `${basename(entry, '.ts')}.mjs`);
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['better-sqlite3'],
    tsconfig: join(workspaceRoot, 'tsconfig.base.json'),
    outfile: script,
    logLevel: 'silent',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  return { script, remove: () => rmSync(outDir, { recursive: true, force: true }) };
}

export type ChildLine = Record<string, unknown>;

export interface ChildResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly lines: readonly ChildLine[];
  readonly stderr: string;
}

export interface RunningChild {
  readonly process: ChildProcess;
  readonly lines: ChildLine[];
  /** Resolves with the first line (already printed or to come) matching `pred`; rejects if the child exits first. */
  waitFor(pred: (line: ChildLine) => boolean): Promise<ChildLine>;
  readonly done: Promise<ChildResult>;
}

/** Starts `node script` with `config` as JSON in the environment variable `envName`. */
export function startChild(script: string, envName: string, config: Record<string, unknown>): RunningChild {
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, [envName]: JSON.stringify(config) },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: ChildLine[] = [];
  const waiters: { pred: (l: ChildLine) => boolean; resolve: (l: ChildLine) => void }[] = [];
  let buffer = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  child.stdout.on('data', (d: Buffer) => {
    buffer += d.toString();
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = JSON.parse(buffer.slice(0, nl)) as ChildLine;
      buffer = buffer.slice(nl + 1);
      lines.push(line);
      for (const w of [...waiters]) {
        if (w.pred(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
    }
  });
  const done = new Promise<ChildResult>((resolveDone) => {
    child.on('exit', (code, signal) => {
      // A child that failed on its own (not killed) says why on stderr; keep it with the lines for the assertion message.
      if (stderr.length > 0 && code !== 0 && signal === null) lines.push({ stderr });
      resolveDone({ code, signal, lines, stderr });
    });
  });
  return {
    process: child,
    lines,
    done,
    waitFor(pred) {
      const found = lines.find(pred);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolveLine, reject) => {
        waiters.push({ pred, resolve: resolveLine });
        void done.then((r) => reject(new Error(`child exited before the awaited line: ${JSON.stringify(r.lines)}`)));
      });
    },
  };
}

/** Starts a child, closes its stdin and waits for it to exit. */
export async function runChild(script: string, envName: string, config: Record<string, unknown>): Promise<ChildResult> {
  const c = startChild(script, envName, config);
  c.process.stdin?.end();
  return c.done;
}
