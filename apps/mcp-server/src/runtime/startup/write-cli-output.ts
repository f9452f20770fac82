// The one place besides serve-stdio.ts that may touch stdout: the answer of the non-serving modes.
// eslint-disable-next-line no-restricted-imports -- --help/--version/--check-config answer on stdout; no MCP session exists in those modes.
import { stdout } from 'node:process';
import { endQuietlyOnBrokenPipe } from '@pfsense-mcp/foundation';

let quietOnBrokenPipe = false;

function writeLine(stream: NodeJS.WritableStream, text: string): void {
  try {
    stream.write(text.endsWith('\n') ? text : `${text}\n`);
  } catch {
    // The stream is closed: nothing else to do.
  }
}

/** Errors and diagnostics of any mode: stderr (stdout is the MCP channel when serving). */
export function writeCliOutput(text: string): void {
  writeLine(process.stderr, text);
}

/**
 * The answer of --help, --version and --check-config, on stdout as a shell user expects (`pfsense-mcp --help |
 * less`). Only those modes call this; they never start an MCP session, so no protocol frame can be mixed in.
 */
export function writeCliAnswer(text: string): void {
  // `pfsense-mcp admin audit export … | head`: a reader that went away ends the command quietly (its exit code).
  if (!quietOnBrokenPipe) {
    quietOnBrokenPipe = true;
    endQuietlyOnBrokenPipe(stdout);
  }
  writeLine(stdout, text);
}
