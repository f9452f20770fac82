// Helpers for the e2e suite: the BUILT server (dist/apps/mcp-server/main.js) spawned as a real child process.
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { assertEra, newClient, type Era } from './clients.js';

export const workspaceRoot = join(import.meta.dirname, '..', '..', '..', '..');
export const serverMain = join(workspaceRoot, 'dist', 'apps', 'mcp-server', 'main.js');
export const simMain = join(workspaceRoot, 'dist', 'tools', 'pfsense-sim', 'main.js');

function newestMtime(dir: string): number {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function libSourceDirs(): string[] {
  return readdirSync(join(workspaceRoot, 'libs'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => join(workspaceRoot, 'libs', e.name, 'src'));
}

/**
 * The source folders each bundle is built from: the server inlines every library it imports, so a change in any
 * libs/<lib>/src (not only in the app's own src) makes it stale. The simulator imports no product library.
 */
export function bundleInputs(): { readonly server: readonly string[]; readonly simulator: readonly string[] } {
  return {
    server: [join(workspaceRoot, 'apps', 'mcp-server', 'src'), ...libSourceDirs()],
    simulator: [join(workspaceRoot, 'tools', 'pfsense-sim', 'src')],
  };
}

/** True when `bundle` is missing or older than the newest file under any of `sourceDirs`. */
export function isStale(bundle: string, sourceDirs: readonly string[]): boolean {
  if (!existsSync(bundle)) return true;
  const built = statSync(bundle).mtimeMs;
  return sourceDirs.some((dir) => newestMtime(dir) > built);
}

function build(name: string): void {
  execFileSync(process.execPath, ['tools/scripts/build-program.mjs', name], { cwd: workspaceRoot, stdio: 'ignore' });
}

/** Builds the server and the simulator (for --demo and --data) when missing or stale (see bundleInputs). */
export function ensureBuilt(): void {
  const inputs = bundleInputs();
  if (isStale(serverMain, inputs.server)) build('mcp-server');
  if (isStale(simMain, inputs.simulator)) build('pfsense-sim');
}

/** A private dir with an owner-only key file holding `apiKey`. */
export function writeKeyFile(apiKey: string, mode = 0o600): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-e2e-'));
  const path = join(dir, 'api-key');
  writeFileSync(path, `${apiKey}\n`, { mode });
  chmodSync(path, mode);
  return path;
}

export function serverEnv(extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: process.env['HOME'] ?? '/tmp', ...extra };
}

export interface ConnectedServer {
  readonly client: Client;
  /** The server's process id (to signal it). */
  readonly pid: number;
  readonly stderr: () => string;
  /** Resolves once the server's stderr ended (after its exit): everything it logged is in `stderr()`. */
  readonly stderrEnded: Promise<void>;
  /** Resolves true once the process is gone, false after `timeoutMs` (polled: the SDK transport does not expose the exit). */
  gone(timeoutMs?: number): Promise<boolean>;
  /** Closes the client; a server that is already gone (killed) is not an error. */
  close(): Promise<void>;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The built server spawned by the v2 SDK Client over stdio, pinned to 2026-07-28 unless `era` says otherwise. */
export async function connectBuilt(env: Record<string, string>, args: string[] = [], era: Era = 'modern'): Promise<ConnectedServer> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [serverMain, ...args],
    env: serverEnv(env),
    stderr: 'pipe',
  });
  let stderr = '';
  const stream = transport.stderr;
  stream?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const stderrEnded = stream === null ? Promise.resolve() : new Promise<void>((resolve) => stream.once('end', () => resolve()));
  const client = newClient(era, 'mcp-server-e2e');
  await client.connect(transport);
  assertEra(client, era);
  const pid = transport.pid;
  if (pid === null) throw new Error('the spawned server has no pid');
  return {
    client,
    pid,
    stderr: () => stderr,
    stderrEnded,
    gone: async (timeoutMs = 60_000) => {
      const end = Date.now() + timeoutMs;
      while (isAlive(pid) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      return !isAlive(pid);
    },
    close: async () => {
      try {
        await client.close();
      } catch {
        // already gone
      }
    },
  };
}

export interface RawRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Spawns the built server with raw pipes (no SDK), optionally feeding stdin lines, and waits for it to exit. */
export function spawnBuilt(env: Record<string, string>, args: string[] = []): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [serverMain, ...args], { env: serverEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
}

export function collect(child: ChildProcessWithoutNullStreams): Promise<RawRun> {
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

export async function runBuilt(env: Record<string, string>, args: string[] = [], stdinLines: string[] = []): Promise<RawRun> {
  const child = spawnBuilt(env, args);
  const done = collect(child);
  for (const line of stdinLines) child.stdin.write(`${line}\n`);
  child.stdin.end();
  return done;
}

export interface BuiltSimulator {
  readonly url: string;
  readonly apiKeyFile: string;
  stop(): Promise<void>;
}

/** Spawns the BUILT simulator (dist/tools/pfsense-sim/main.js) with `args` and waits for its JSON ready line. */
export async function spawnBuiltSimulator(args: readonly string[]): Promise<BuiltSimulator> {
  // stdin stays open as a lifeline (--exit-on-stdin-eof): a crashed test run leaves no simulator behind.
  const child = spawn(process.execPath, [simMain, '--port', '0', '--exit-on-stdin-eof', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await new Promise<{ url: string; apiKeyFile: string }>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const end = out.indexOf('\n');
      if (end >= 0) resolve(JSON.parse(out.slice(0, end)) as { url: string; apiKeyFile: string });
    });
    void exited.then(() => reject(new Error(`pfsense-sim exited before it was ready: ${stderr.slice(0, 500)}`)));
  });
  return {
    url: ready.url,
    apiKeyFile: ready.apiKeyFile,
    stop: async () => {
      child.stdin.end();
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A raw 2026-07-28 request line: every request carries the per-request `_meta` envelope. */
export function modernRequest(id: number, method: string, params: Record<string, unknown> = {}): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: ENVELOPE } });
}
