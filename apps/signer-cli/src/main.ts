// Entry of pfsense-mcp-signer (bundled to dist/apps/signer-cli/main.js). See help-text.ts and README.md.
import { runCli } from './run-cli.js';

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
