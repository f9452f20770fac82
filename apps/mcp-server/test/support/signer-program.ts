// The real signer (dist/apps/signer-cli/main.js), the operator's program, built when stale and run as a child.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { isStale, workspaceRoot } from './built-server.js';
import { runProgram, runProgramAsync, type ProgramRun } from './run-program.js';

export const signerMain = join(workspaceRoot, 'dist', 'apps', 'signer-cli', 'main.js');

/** Builds the signer when missing or older than its sources (apps/signer-cli/src and the libs it bundles). */
export function ensureSignerBuilt(): void {
  const sources = ['apps/signer-cli/src', ...['authorization', 'crypto', 'canonical', 'adapters', 'policy', 'foundation'].map((l) => `libs/${l}/src`)].map((d) => join(workspaceRoot, d));
  if (isStale(signerMain, sources)) execFileSync(process.execPath, ['tools/scripts/build-program.mjs', 'signer-cli'], { cwd: workspaceRoot, stdio: 'ignore' });
}

// Plain output whatever the terminal: the suites read the signer's text.
const SIGNER_ENV = Object.freeze({ NO_COLOR: '1' });

/** The signer with ARGS, synchronously. */
export function runSigner(args: readonly string[]): ProgramRun {
  return runProgram(signerMain, args, SIGNER_ENV);
}

/** The signer with ARGS, asynchronously (beside the in-process simulator). */
export function runSignerAsync(args: readonly string[]): Promise<ProgramRun> {
  return runProgramAsync(signerMain, args, SIGNER_ENV);
}
