// A built program (the server's `admin`, the signer) run as a real child process: its exit status, its output, and
// its last stdout line parsed as JSON (for --json runs). Only PATH (plus `env`) reaches the child.
import { spawn, spawnSync } from 'node:child_process';

export interface ProgramRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The last stdout line parsed as JSON ({} when it is not JSON). */
  readonly json: Record<string, unknown>;
}

/** The last line of `stdout` parsed as a JSON object ({} when it is not JSON). */
export function lastJsonLine(stdout: string): Record<string, unknown> {
  try {
    return JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as Record<string, unknown>;
  } catch {
    return {};
  }
}

function childEnv(env: Record<string, string>): Record<string, string> {
  return { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env };
}

/** Runs `main` synchronously (bounded at 60 s): for programs that need nothing from this process meanwhile. */
export function runProgram(main: string, args: readonly string[], env: Record<string, string> = {}): ProgramRun {
  const r = spawnSync(process.execPath, [main, ...args], { encoding: 'utf8', env: childEnv(env), timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, json: lastJsonLine(r.stdout) };
}

/** Runs `main` asynchronously: the simulator lives in this process and must keep answering while the child runs. */
export async function runProgramAsync(main: string, args: readonly string[], env: Record<string, string> = {}): Promise<ProgramRun> {
  const child = spawn(process.execPath, [main, ...args], { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { status, stdout, stderr, json: lastJsonLine(stdout) };
}
