import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

export const INITIALIZE_LINE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '0' } },
})}\n`;

const INITIALIZED_AND_LIST =
  `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n` +
  `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`;

/** Milliseconds from spawn to the `initialize` reply and to the first `tools/list` reply. */
export interface StartupTimes {
  readonly initializeMs: number;
  readonly toolsListMs: number;
}

/**
 * Spawns `node file` and drives it as an MCP client does: `initialize` right away; on its reply, the
 * `initialized` notification and `tools/list`. Measures spawn → each reply (a server that answers `initialize`
 * early but loads its tools later shows it in the second number). Kills the child afterwards.
 */
export function timeStartup(file: string, env: Record<string, string>, cwd: string): Promise<StartupTimes> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [file], { env, cwd, stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    let initializeMs: number | null = null;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`bench: ${file} did not answer initialize and tools/list within 20 s`));
    }, 20_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      let end: number;
      while ((end = out.indexOf('\n')) >= 0) {
        const line = out.slice(0, end);
        out = out.slice(end + 1);
        const id = (JSON.parse(line) as { id?: unknown }).id;
        if (id === 1 && initializeMs === null) {
          initializeMs = performance.now() - started;
          child.stdin.write(INITIALIZED_AND_LIST);
        } else if (id === 2 && initializeMs !== null) {
          const times = { initializeMs, toolsListMs: performance.now() - started };
          clearTimeout(timer);
          child.once('exit', () => resolve(times));
          child.kill('SIGKILL');
        }
      }
    });
    child.once('error', reject);
    child.stdin.write(INITIALIZE_LINE);
  });
}

/** Peak resident set size (VmHWM) of a live process, in MiB; null where /proc is not available. */
export function peakRssMiB(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    return kb === undefined ? null : Number(kb) / 1024;
  } catch {
    return null;
  }
}
