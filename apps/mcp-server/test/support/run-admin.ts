// `pfsense-mcp admin …` through the BUILT server program, as a real child process (see run-program.ts).
import { serverMain } from './built-server.js';
import { runProgram, runProgramAsync, type ProgramRun } from './run-program.js';

/** `admin ARGS` run synchronously; `env` is added to PATH. */
export function runAdmin(args: readonly string[], env: Record<string, string> = {}): ProgramRun {
  return runProgram(serverMain, ['admin', ...args], env);
}

/** `admin ARGS` run asynchronously (for the commands that talk to the in-process simulator). */
export function runAdminAsync(args: readonly string[], env: Record<string, string> = {}): Promise<ProgramRun> {
  return runProgramAsync(serverMain, ['admin', ...args], env);
}
