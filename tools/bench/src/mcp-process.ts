import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The opening a client of each protocol era sends: `initialize` (2025) or `server/discover` (2026-07-28). */
export type Era = 'legacy' | 'modern';

// Every 2026-07-28 request carries the per-request envelope (MCP specification 2026-07-28, `_meta`).
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

const line = (message: object) => `${JSON.stringify(message)}\n`;

export const INITIALIZE_LINE = line({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '0' } },
});

const OPENING: Readonly<Record<Era, { first: string; then: string }>> = Object.freeze({
  legacy: {
    first: INITIALIZE_LINE,
    then: line({ jsonrpc: '2.0', method: 'notifications/initialized' }) + line({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
  },
  modern: {
    first: line({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: ENVELOPE } }),
    then: line({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: ENVELOPE } }),
  },
});

/** Milliseconds from spawn to the first reply (`initialize` or `server/discover`) and to the first `tools/list` reply. */
export interface StartupTimes {
  readonly initializeMs: number;
  readonly toolsListMs: number;
}

/**
 * Spawns `node file` and drives it as an MCP client of `era` does: the opening request right away; on its
 * reply, `tools/list` (after `notifications/initialized` in the 2025 era). Measures spawn → each reply (a
 * server that answers the opening early but loads its tools later shows it in the second number). Kills the
 * child afterwards.
 */
export function timeStartup(file: string, env: Record<string, string>, cwd: string, era: Era = 'legacy'): Promise<StartupTimes> {
  const opening = OPENING[era];
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [file], { env, cwd, stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    let initializeMs: number | null = null;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`bench: ${file} did not answer its opening and tools/list within 20 s`));
    }, 20_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      let end: number;
      while ((end = out.indexOf('\n')) >= 0) {
        const frame = JSON.parse(out.slice(0, end)) as { id?: unknown; error?: unknown };
        out = out.slice(end + 1);
        if (frame.error !== undefined) {
          clearTimeout(timer);
          child.kill('SIGKILL');
          reject(new Error(`bench: ${file} refused the ${era} opening`));
          return;
        }
        if (frame.id === 1 && initializeMs === null) {
          initializeMs = performance.now() - started;
          child.stdin.write(opening.then);
        } else if (frame.id === 2 && initializeMs !== null) {
          const times = { initializeMs, toolsListMs: performance.now() - started };
          clearTimeout(timer);
          child.once('exit', () => resolve(times));
          child.kill('SIGKILL');
        }
      }
    });
    child.once('error', reject);
    child.stdin.write(opening.first);
  });
}

/** Peak resident set size (VmHWM) of a live process, in MiB; null where /proc is not available. */
export function peakRssMiB(pid: number): number | null {
  return statusMiB(pid, 'VmHWM');
}

/** The resident set of a live process now, in MiB; null where /proc is not available. */
export function currentRssMiB(pid: number): number | null {
  return statusMiB(pid, 'VmRSS');
}

function statusMiB(pid: number, field: 'VmHWM' | 'VmRSS'): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1];
    return kb === undefined ? null : Number(kb) / 1024;
  } catch {
    return null;
  }
}
