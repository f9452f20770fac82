// Entry point of the built program (dist/tools/pfsense-sim/main.js).
import { runCli } from './cli.js';

const code = await runCli(process.argv.slice(2), {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
  stdin: process.stdin,
});
// Exit at once rather than when the event loop drains: runCli has just removed its signal handlers, and a
// late forwarded SIGINT (npm run sim sends Ctrl-C twice) must not turn a clean stop into a signal death.
// stdout/stderr are synchronous for files and pipes on POSIX, so nothing written is lost.
process.exit(code);
