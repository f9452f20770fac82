// pfsense-mcp: the program entry. Everything here is wiring; the pieces live in runtime/ and tools/.
// stdout is the MCP channel in every mode: nothing in this program writes to it except the SDK transport.
import { HELP_TEXT } from './runtime/help-text.js';
import { loadConfig } from './runtime/load-config.js';
import { parseCliArgs, UsageError } from './runtime/parse-cli-args.js';
import { reportStartupFailure } from './runtime/report-startup-failure.js';
import { runCheckConfig } from './runtime/run-check-config.js';
import { runDemo } from './runtime/run-demo.js';
import { runServe } from './runtime/run-serve.js';
import { knownToolNames } from './runtime/select-tools.js';
import { PFREST_VERSION } from '@pfsense-mcp/pfsense-read';
import { SERVER_NAME, SERVER_VERSION } from './runtime/server-identity.js';
import { writeCliOutput } from './runtime/write-cli-output.js';

async function main(argv: readonly string[]): Promise<number> {
  let mode;
  try {
    mode = parseCliArgs(argv);
  } catch (error) {
    writeCliOutput(error instanceof UsageError ? error.message : 'pfsense-mcp: bad arguments');
    return 2;
  }
  switch (mode) {
    case 'help':
      writeCliOutput(HELP_TEXT);
      return 0;
    case 'version':
      writeCliOutput(`${SERVER_NAME} ${SERVER_VERSION} (pfREST ${PFREST_VERSION})`);
      return 0;
    case 'check-config':
      return runCheckConfig(process.env);
    case 'demo':
      try {
        return await runDemo();
      } catch (error) {
        return reportStartupFailure(error);
      }
    case 'serve': {
      let config;
      try {
        config = loadConfig(process.env, knownToolNames());
      } catch (error) {
        return reportStartupFailure(error);
      }
      try {
        return await runServe(config);
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
