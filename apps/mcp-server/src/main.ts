// pfsense-mcp: the program entry. Everything here is wiring; the pieces live in runtime/ and tools/.
// stdout is the MCP channel when serving: only the SDK transport writes to it then; --help, --version and
// --check-config answer there instead (runtime/startup/write-cli-output.ts).
// Every mode loads on demand (the build is code-split: tools/scripts/build-program.mjs), serving too: the MCP SDK is
// evaluated only by a process that serves (the admin commands, --help, --version and --check-config start without
// it), and even then only after the opening reply and the first tools/list (runtime/opening/answer-opening-early.ts).
import { KNOWN_TOOL_NAMES } from './runtime/config/known-tool-names.js';
import { loadConfig } from './runtime/config/load-config.js';
import { parseCliArgs, UsageError } from './runtime/startup/parse-cli-args.js';
import { reportStartupFailure } from './runtime/startup/report-startup-failure.js';
import { writeCliAnswer, writeCliOutput } from './runtime/startup/write-cli-output.js';

async function main(argv: readonly string[]): Promise<number> {
  // `pfsense-mcp admin …` is a separate program sharing this file; loaded only when asked for.
  if (argv[0] === 'admin') return (await import('./admin/run-admin.js')).runAdmin(argv.slice(1), process.env);
  let mode;
  try {
    mode = parseCliArgs(argv);
  } catch (error) {
    writeCliOutput(error instanceof UsageError ? error.message : 'pfsense-mcp: bad arguments');
    return 2;
  }
  switch (mode) {
    case 'help':
      writeCliAnswer((await import('./runtime/startup/help-text.js')).HELP_TEXT);
      return 0;
    case 'version':
      writeCliAnswer((await import('./runtime/startup/help-text.js')).VERSION_TEXT);
      return 0;
    case 'check-config':
      return (await import('./runtime/startup/run-check-config.js')).runCheckConfig(process.env);
    case 'demo':
      try {
        return await (await import('./runtime/startup/run-demo.js')).runDemo();
      } catch (error) {
        return reportStartupFailure(error);
      }
    case 'serve': {
      try {
        const config = loadConfig(process.env, KNOWN_TOOL_NAMES);
        return await (await import('./runtime/startup/run-serve.js')).runServe(config);
      } catch (error) {
        return reportStartupFailure(error);
      }
    }
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // Pooled sockets or a stuck child must not keep a finished server alive.
    setTimeout(() => process.exit(code), 2_000).unref();
  },
  () => {
    process.exitCode = 1;
    setTimeout(() => process.exit(1), 100).unref();
  },
);
