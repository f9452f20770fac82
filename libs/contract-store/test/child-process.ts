import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const workspaceRoot = resolve(here, '..', '..', '..');

/**
 * Bundles the child fixture to plain ESM JavaScript (a plain `node` cannot import TypeScript). The output
 * lives under the workspace's tmp/ so `better-sqlite3` (kept external: a native addon) resolves from the
 * workspace node_modules.
 */
export async function buildChild(): Promise<string> {
  const base = join(workspaceRoot, 'tmp', 'contract-store-child');
  mkdirSync(base, { recursive: true });
  const outDir = mkdtempSync(join(base, 'build-'));
  const outfile = join(outDir, 'store-child.mjs');
  await build({
    entryPoints: [join(here, 'fixtures', 'store-child.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['better-sqlite3'],
    tsconfig: join(workspaceRoot, 'tsconfig.base.json'),
    outfile,
    logLevel: 'silent',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  return outfile;
}

export interface ChildResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly lines: readonly Record<string, unknown>[];
}

export interface RunningChild {
  readonly process: ChildProcess;
  readonly lines: Record<string, unknown>[];
  /** Resolves when the child printed a line matching `pred`. */
  waitFor(pred: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  readonly done: Promise<ChildResult>;
}

export function startChild(script: string, config: Record<string, unknown>): RunningChild {
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, CS_CHILD_CONFIG: JSON.stringify(config) },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: Record<string, unknown>[] = [];
  const waiters: { pred: (l: Record<string, unknown>) => boolean; resolve: (l: Record<string, unknown>) => void }[] = [];
  let buffer = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  child.stdout.on('data', (d: Buffer) => {
    buffer += d.toString();
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = JSON.parse(buffer.slice(0, nl)) as Record<string, unknown>;
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
      if (stderr.length > 0 && code !== 0 && signal === null) lines.push({ stderr });
      resolveDone({ code, signal, lines });
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
        void done.then(() => reject(new Error(`child exited before the awaited line: ${JSON.stringify(lines)}`)));
      });
    },
  };
}

export async function runChild(script: string, config: Record<string, unknown>): Promise<ChildResult> {
  const c = startChild(script, config);
  c.process.stdin?.end();
  return c.done;
}
