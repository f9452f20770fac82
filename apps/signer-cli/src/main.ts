// Entry of pfsense-mcp-signer (bundled to dist/apps/signer-cli/main.js). See help-text.ts and README.md.
import { endQuietlyOnBrokenPipe } from '@pfsense-mcp/foundation';
import { runCli } from './run-cli.js';

// `pfsense-mcp-signer review … --members | head`: the reader going away ends the program quietly.
endQuietlyOnBrokenPipe(process.stdout);

const code = await runCli(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  stdinIsTty: process.stdin.isTTY === true,
  stdoutIsTty: process.stdout.isTTY === true,
  env: process.env,
  now: () => Date.now(),
});
process.exitCode = code;
// A code read from a piped stdin leaves the pipe open: the program is done, so it lets go of it and exits.
process.stdin.destroy();
