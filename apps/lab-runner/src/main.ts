// pfsense-mcp-lab: the closed lab runner (DESIGN §7). With PFSENSE_MCP_LAB_WORKER=1 and an IPC channel the
// same bundle is a G scenario's worker process (its job comes over IPC only).
import { fileURLToPath } from 'node:url';
import { UsageError, parseCliArgs } from './cli-args.js';
import { HELP_TEXT, listText } from './help-text.js';
import { LabError } from './lab-error.js';
import { ReportDirError, runLab } from './run-lab.js';
import { defaultSimulatorEntry } from './simulator-child.js';
import { runWorker } from './worker-main.js';
import { WORKER_ENV } from './worker-protocol.js';

/** Test-only: pause after the named step until interrupted (the Ctrl-C test). */
const PAUSE_ENV = 'PFSENSE_MCP_LAB_TEST_PAUSE_AFTER';

function interruption() {
  let trigger = () => {};
  const whenInterrupted = new Promise<void>((resolve) => {
    trigger = resolve;
  });
  const state = {
    interrupted: false,
    whenInterrupted,
    interrupt() {
      state.interrupted = true;
      trigger();
    },
  };
  return state;
}

async function runCli(argv: readonly string[]): Promise<number> {
  const out = { write: (t: string) => void process.stdout.write(t), isTTY: process.stdout.isTTY === true };
  const err = { write: (t: string) => void process.stderr.write(t), isTTY: process.stderr.isTTY === true };
  let command;
  try {
    command = parseCliArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      err.write(`pfsense-mcp-lab: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  if (command.kind === 'help') {
    out.write(HELP_TEXT);
    return 0;
  }
  if (command.kind === 'list') {
    out.write(listText(command.json));
    return 0;
  }
  const stop = interruption();
  const workers = new Set<{ kill(signal: NodeJS.Signals): boolean }>();
  const onSignal = () => {
    if (stop.interrupted) return;
    err.write('pfsense-mcp-lab: interrupted — no further step; restoring the candidate where safe, then writing the report\n');
    // A worker waiting at its kill point is SIGKILLed by its scenario; a restarted one is told to stop
    // between steps, like this process.
    stop.interrupt();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const pause = process.env[PAUSE_ENV];
  try {
    const outcome = await runLab({
      ids: command.ids,
      json: command.json,
      reportDir: command.reportDir,
      cwd: process.cwd(),
      stdout: out,
      stderr: err,
      simulatorEntry: defaultSimulatorEntry(),
      workerEntry: fileURLToPath(import.meta.url),
      interruption: stop,
      pauseAfter: pause === undefined || pause === '' ? null : pause.slice(0, 64),
      workers,
    });
    return outcome.exitCode;
  } catch (e) {
    if (e instanceof ReportDirError) {
      err.write(`pfsense-mcp-lab: ${e.message.replace(/^REPORT_DIR: /, '')}\n`);
      return 2;
    }
    err.write(`pfsense-mcp-lab: ${e instanceof LabError ? e.message : 'the run failed'}\n`);
    return 1;
  }
}

if (process.env[WORKER_ENV] === '1' && typeof process.send === 'function') {
  await runWorker();
} else {
  const code = await runCli(process.argv.slice(2));
  process.exit(code);
}
