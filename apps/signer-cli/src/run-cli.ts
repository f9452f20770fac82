import type { Readable, Writable } from 'node:stream';
import { terminalSafeText } from '@pfsense-mcp/foundation';
import { ArtifactFormatError, ArtifactVerificationError } from '@pfsense-mcp/authorization';
import type { CliContext } from './cli-context.js';
import { ExitCode } from './exit-code.js';
import { HELP_TEXT, VERSION_TEXT } from './help-text.js';
import { keygenCommand } from './keygen-command.js';
import { parseCliArgs } from './parse-cli-args.js';
import type { CliArgs } from './parse-cli-args.js';
import { approveCommand } from './approve-command.js';
import { asciiJson } from './render-safe.js';
import { reviewCommand } from './review-command.js';
import { signCommand } from './sign-command.js';
import { SignerError } from './signer-error.js';
import { createStyle } from './terminal-style.js';
import { verifyCommand } from './verify-command.js';

export interface CliIo {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly stdinIsTty: boolean;
  readonly stdoutIsTty: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly now: () => number;
}

/** The one place a refusal is worded: "pfsense-mcp-signer: refused: <message> (<CODE>)", or JSON. */
function report(io: CliIo, json: boolean, colour: boolean, code: string, rawMessage: string): void {
  // Whatever a message echoes (a file name, an option) reaches the terminal escaped.
  const message = terminalSafeText(rawMessage, { keepLineFeeds: false });
  if (json) {
    io.stdout.write(`${asciiJson({ ok: false, error: { code, message } })}\n`);
  } else {
    const style = createStyle(colour);
    io.stderr.write(`pfsense-mcp-signer: ${style.red('refused')}: ${message} (${code})\n`);
  }
}

/** Runs one command line and returns the exit code (see exit-code.ts). Never throws. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const wantsJson = argv.includes('--json');
  const colourAllowed = io.stdoutIsTty && io.env.NO_COLOR === undefined && !argv.includes('--no-color') && !wantsJson;
  let args: CliArgs;
  try {
    args = parseCliArgs(argv);
  } catch (e) {
    if (e instanceof SignerError) {
      report(io, wantsJson, colourAllowed, e.code, e.message);
      return e.exitCode;
    }
    throw e;
  }
  if (args.help || args.command === 'help') {
    io.stdout.write(HELP_TEXT);
    return ExitCode.OK;
  }
  if (args.command === 'version') {
    io.stdout.write(`${VERSION_TEXT}\n`);
    return ExitCode.OK;
  }
  const ctx: CliContext = {
    args,
    stdin: io.stdin,
    stdout: io.stdout,
    stderr: io.stderr,
    interactive: io.stdinIsTty && io.stdoutIsTty,
    style: createStyle(colourAllowed),
    now: io.now,
  };
  try {
    switch (args.command) {
      case 'keygen':
        return keygenCommand(ctx);
      case 'review':
        return reviewCommand(ctx);
      case 'sign':
        return await signCommand(ctx);
      case 'approve':
        return await approveCommand(ctx);
      case 'verify':
        return verifyCommand(ctx);
    }
  } catch (e) {
    if (e instanceof SignerError) {
      report(io, args.json, colourAllowed, e.code, e.message);
      return e.exitCode;
    }
    if (e instanceof ArtifactFormatError || e instanceof ArtifactVerificationError) {
      const refusal = SignerError.fromLibrary(ExitCode.ARTIFACT_REFUSED, e);
      report(io, args.json, colourAllowed, refusal.code, refusal.message);
      return ExitCode.ARTIFACT_REFUSED;
    }
    // A bug: say so without details (an unexpected error message could carry file content).
    report(io, args.json, colourAllowed, 'INTERNAL', `internal error (${e instanceof Error ? e.name : 'unknown'}); nothing was signed`);
    return ExitCode.INTERNAL;
  }
  return ExitCode.USAGE;
}
