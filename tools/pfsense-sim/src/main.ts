// Entry point of the built program (dist/tools/pfsense-sim/main.js).
import { runCli } from './cli.js';

const code = await runCli(process.argv.slice(2), {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
  stdin: process.stdin,
});
process.exitCode = code;
