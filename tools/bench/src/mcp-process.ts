import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

export const INITIALIZE_LINE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '0' } },
})}\n`;

/**
 * Spawns `node file` and measures spawn → the first stdout line (the `initialize` reply, sent right away on
 * stdin), in milliseconds. Kills the child afterwards.
 */
export function timeToInitialize(file: string, env: Record<string, string>, cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [file], { env, cwd, stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`bench: ${file} sent no initialize reply within 20 s`));
    }, 20_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (!out.includes('\n')) return;
      const elapsed = performance.now() - started;
      clearTimeout(timer);
      child.once('exit', () => resolve(elapsed));
      child.kill('SIGKILL');
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
