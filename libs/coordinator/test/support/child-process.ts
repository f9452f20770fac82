// Child processes for the race and crash tests, the way libs/contract-store and libs/executor run theirs:
// the fixture is bundled by esbuild into the workspace's tmp/ (so the external native better-sqlite3
// resolves from the workspace node_modules) and run with plain `node`. The job comes in
// COORDINATOR_CHILD_CONFIG; the child prints JSON lines on stdout.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { bytesToHex } from '@pfsense-mcp/canonical';
import { operatorAuthorities } from './world.js';
import type { World } from './world.js';

const here = dirname(fileURLToPath(import.meta.url));
const workspaceRoot = resolve(here, '..', '..', '..', '..');

export async function buildChild(): Promise<{ script: string; remove(): void }> {
  const base = join(workspaceRoot, 'tmp', 'coordinator-child');
  mkdirSync(base, { recursive: true });
  const outDir = mkdtempSync(join(base, 'build-'));
  const script = join(outDir, 'coordinator-child.mjs');
  await build({
    entryPoints: [join(here, '..', 'fixtures', 'coordinator-child.ts')],
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

/** The child's view of a world: the same files, keys and simulator (the private server key for the outbox). */
export function childConfigOf(world: World, sim: { url: string; apiKey: string }, tlsMode: string, rateLimits: Record<string, number>): Record<string, unknown> {
  return {
    storeDir: join(world.dir, 'store'),
    anchorFile: join(world.dir, 'anchor.json'),
    inbox: world.inbox,
    outbox: world.outbox,
    masterKeyHex: bytesToHex(world.masterKey),
    serverPrivateKeyHex: bytesToHex(world.keys.server.privateKey),
    authorities: operatorAuthorities(world.keys)
      .entries()
      .map((a) => ({ keyId: a.keyId, publicKeyHex: bytesToHex(a.publicKey), role: a.role, active: a.active })),
    nowMs: world.clock.now,
    simUrl: sim.url,
    apiKey: sim.apiKey,
    tlsMode,
    rateLimits,
  };
}

export interface ChildResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly lines: readonly Record<string, unknown>[];
  readonly stderr: string;
}

export interface RunningChild {
  readonly process: ChildProcess;
  waitFor(pred: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  readonly done: Promise<ChildResult>;
}

export function startChild(script: string, config: Record<string, unknown>): RunningChild {
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, COORDINATOR_CHILD_CONFIG: JSON.stringify(config) },
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
    child.on('exit', (code, signal) => resolveDone({ code, signal, lines, stderr }));
  });
  return {
    process: child,
    done,
    waitFor(pred) {
      const found = lines.find(pred);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolveLine, reject) => {
        waiters.push({ pred, resolve: resolveLine });
        void done.then((r) => reject(new Error(`child exited before the awaited line: ${JSON.stringify(r.lines)} ${r.stderr}`)));
      });
    },
  };
}
