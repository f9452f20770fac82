// The real signer (dist/apps/signer-cli/main.js), the operator's program, built when stale and run as a child.
import { join } from 'node:path';
import { ensureProgramBuilt } from '@pfsense-mcp/test-support';
import { workspaceRoot } from './built-server.js';
import { runProgram, runProgramAsync, type ProgramRun } from './run-program.js';

export const signerMain = join(workspaceRoot, 'dist', 'apps', 'signer-cli', 'main.js');

/** Builds the signer when missing or older than anything it is built from (test-support's one staleness rule). */
export function ensureSignerBuilt(): Promise<void> {
  return ensureProgramBuilt('signer-cli');
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
