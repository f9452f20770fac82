// Entry point of the built program (dist/tools/pfsense-sim/main.js).
import { endQuietlyOnBrokenPipe, terminalSafeText } from '@pfsense-mcp/foundation';
import { runCli } from './cli.js';

// `pfsense-sim --help | head`: once stdout's reader went away (EPIPE), stdout is left alone — no stack trace —
// and the simulator goes on (a running one keeps serving) and exits with its usual code: foundation's
// endQuietlyOnBrokenPipe with a callback that only stops writing.
let stdoutGone = false;
endQuietlyOnBrokenPipe(process.stdout, () => {
  stdoutGone = true;
});

// Every line printed passes terminalSafeText: an unknown option or a path echoed back reaches the terminal escaped
// (JSON lines stay valid JSON: the escape is JSON's own).
const code = await runCli(process.argv.slice(2), {
  stdout: (line) => void (stdoutGone || process.stdout.write(`${terminalSafeText(line)}\n`)),
  stderr: (line) => process.stderr.write(`${terminalSafeText(line)}\n`),
  stdin: process.stdin,
});
// Exit at once rather than when the event loop drains: runCli has just removed its signal handlers, and a
// late forwarded SIGINT (npm run sim sends Ctrl-C twice) must not turn a clean stop into a signal death.
// stdout/stderr are synchronous for files and pipes on POSIX, so nothing written is lost.
process.exit(code);
