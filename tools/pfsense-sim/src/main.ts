// Entry point of the built program (dist/tools/pfsense-sim/main.js).
import { terminalSafeText } from '@pfsense-mcp/foundation';
import { runCli } from './cli.js';

// Every line printed passes terminalSafeText: an unknown option or a path echoed back reaches the terminal escaped
// (JSON lines stay valid JSON: the escape is JSON's own).
const code = await runCli(process.argv.slice(2), {
  stdout: (line) => process.stdout.write(`${terminalSafeText(line)}\n`),
  stderr: (line) => process.stderr.write(`${terminalSafeText(line)}\n`),
  stdin: process.stdin,
});
// Exit at once rather than when the event loop drains: runCli has just removed its signal handlers, and a
// late forwarded SIGINT (npm run sim sends Ctrl-C twice) must not turn a clean stop into a signal death.
// stdout/stderr are synchronous for files and pipes on POSIX, so nothing written is lost.
process.exit(code);
