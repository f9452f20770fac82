// Helpers for the e2e suite: the BUILT server (dist/apps/mcp-server/main.js) spawned as a real child process.
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export const workspaceRoot = join(import.meta.dirname, '..', '..', '..', '..');
export const serverMain = join(workspaceRoot, 'dist', 'apps', 'mcp-server', 'main.js');
export const simMain = join(workspaceRoot, 'dist', 'tools', 'pfsense-sim', 'main.js');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds the server (and the simulator for --demo) when the bundle is missing or older than the app's sources. */
export function ensureBuilt(): void {
  const stale = !existsSync(serverMain) || statSync(serverMain).mtimeMs < newestMtime(join(workspaceRoot, 'apps', 'mcp-server', 'src'));
  if (stale) execFileSync(process.execPath, ['tools/scripts/build-program.mjs', 'mcp-server'], { cwd: workspaceRoot, stdio: 'ignore' });
  if (!existsSync(simMain)) execFileSync(process.execPath, ['tools/scripts/build-program.mjs', 'pfsense-sim'], { cwd: workspaceRoot, stdio: 'ignore' });
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
  readonly stderr: () => string;
  close(): Promise<void>;
}

export async function connectBuilt(env: Record<string, string>, args: string[] = []): Promise<ConnectedServer> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [serverMain, ...args], env: serverEnv(env), stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'mcp-server-e2e', version: '0.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
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

export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});
