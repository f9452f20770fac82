// Entry point of the built program (dist/tools/pfsense-sim/main.js).
import { runCli } from './cli.js';

// `pfsense-sim --help | head`: once stdout's reader went away (EPIPE), stdout is left alone — no stack trace —
// and the simulator goes on (a running one keeps serving) and exits with its usual code. The rule of the product's
// endQuietlyOnBrokenPipe (libs/foundation), which a tool does not import (docs/DESIGN.md §2).
let stdoutGone = false;
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  stdoutGone = true;
});

const code = await runCli(process.argv.slice(2), {
  stdout: (line) => void (stdoutGone || process.stdout.write(`${line}\n`)),
  stderr: (line) => process.stderr.write(`${line}\n`),
  stdin: process.stdin,
});
// Exit at once rather than when the event loop drains: runCli has just removed its signal handlers, and a
// late forwarded SIGINT (npm run sim sends Ctrl-C twice) must not turn a clean stop into a signal death.
// stdout/stderr are synchronous for files and pipes on POSIX, so nothing written is lost.
process.exit(code);
