// pfsense-mcp-lab: the closed lab runner (docs/DESIGN.md §7). With PFSENSE_MCP_LAB_WORKER=1 and an IPC channel the
// same bundle is a G scenario's worker process (its job comes over IPC only).
import { fileURLToPath } from 'node:url';
import { endQuietlyOnBrokenPipe } from '@pfsense-mcp/foundation';
import { UsageError, parseCliArgs } from './cli-args.js';
import { HELP_TEXT, listText } from './help-text.js';
import { GATE_LEASE_MS, LabGateError, requestGate } from './appliance-gate.js';
import { LabConfigError, loadLabConfig } from './lab-config.js';
import { LabError } from './lab-error.js';
import { ReportDirError, checkOwnerKeyConfigured, runLab } from './run-lab.js';
import { ResumeError } from './run-state.js';
import { defaultSimulatorEntry } from './simulator-child.js';
import { runWorker } from './worker-main.js';
import { WORKER_ENV } from './worker-protocol.js';

/** Test-only: pause after the named step until interrupted (the Ctrl-C test). */
const PAUSE_ENV = 'PFSENSE_MCP_LAB_TEST_PAUSE_AFTER';
/** Test-only: after the named step, wait until the gate deadline has passed (the deadline-expiry test). */
const WAIT_DEADLINE_ENV = 'PFSENSE_MCP_LAB_TEST_WAIT_DEADLINE_AFTER';
/** Test-only: the lease of a gate requested now, in ms (the deadline-expiry test needs a short one). */
const GATE_LEASE_ENV = 'PFSENSE_MCP_LAB_TEST_GATE_LEASE_MS';

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
  // `npm run -s lab -- --list | head`: once the reader went away, stdout is left alone and the run finishes with
  // its usual exit code (never cut short mid-scenario: the candidate must be brought back).
  let stdoutGone = false;
  endQuietlyOnBrokenPipe(process.stdout, () => {
    stdoutGone = true;
  });
  const out = { write: (t: string) => void (stdoutGone || process.stdout.write(t)), isTTY: process.stdout.isTTY === true };
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
  if (command.kind === 'request-gate') {
    try {
      const config = loadLabConfig(command.configFile, process.cwd());
      checkOwnerKeyConfigured(config, command.ids);
      const lease = Number(process.env[GATE_LEASE_ENV] ?? GATE_LEASE_MS);
      const r = await requestGate(
        config,
        command.ids,
        Date.now(),
        Number.isSafeInteger(lease) && lease > 0 && lease <= GATE_LEASE_MS ? lease : GATE_LEASE_MS,
      );
      if (command.json) out.write(`${JSON.stringify({ pending_request: r.pendingRequest, request_public_key: r.requestPublicKey })}\n`);
      else {
        out.write(
          [
            `pending gate request: ${r.pendingRequest}`,
            `  scenarios            ${command.ids.join(', ')}`,
            `  deadline             ${new Date(r.deadline).toISOString()}`,
            `  appliance binding    ${r.applianceBindingDigest}`,
            `runner request key (the signer's --server-key): ${r.requestPublicKey}`,
            'next: pfsense-mcp-signer sign FILE --key lab-gate-<id>.key --server-key lab-request.pub --out DIR',
            '',
          ].join('\n'),
        );
      }
      return 0;
    } catch (e) {
      return refusedBeforeRun(e, err);
    }
  }
  let lab = null;
  let resume = null;
  const waitDeadlineAfter = process.env[WAIT_DEADLINE_ENV]?.slice(0, 64) ?? null;
  if (command.kind === 'resume') {
    try {
      resume = { config: loadLabConfig(command.configFile, process.cwd()), runId: command.runId, waitDeadlineAfter };
    } catch (e) {
      return refusedBeforeRun(e, err);
    }
  } else if (command.lab !== null) {
    try {
      lab = { config: loadLabConfig(command.lab.configFile, process.cwd()), receiptFile: command.lab.receiptFile, waitDeadlineAfter };
    } catch (e) {
      return refusedBeforeRun(e, err);
    }
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
      ids: command.kind === 'resume' ? [] : command.ids,
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
      lab,
      resume,
    });
    return outcome.exitCode;
  } catch (e) {
    if (e instanceof LabConfigError || e instanceof LabGateError || e instanceof ResumeError) return refusedBeforeRun(e, err);
    if (e instanceof ReportDirError) {
      err.write(`pfsense-mcp-lab: ${e.message.replace(/^REPORT_DIR: /, '')}\n`);
      return 2;
    }
    err.write(`pfsense-mcp-lab: ${e instanceof LabError ? e.message : 'the run failed'}\n`);
    return 1;
  }
}

/** A lab config refusal is a usage error (2); a gate receipt, preflight or resume refusal is 3 (nothing changed). */
function refusedBeforeRun(e: unknown, err: { write(t: string): void }): number {
  if (e instanceof LabConfigError) {
    err.write(`pfsense-mcp-lab: ${e.message}\n`);
    return 2;
  }
  if (e instanceof LabGateError || e instanceof ResumeError) {
    err.write(`pfsense-mcp-lab: refused, nothing changed: ${e.message}\n`);
    return 3;
  }
  err.write(`pfsense-mcp-lab: ${e instanceof LabError ? e.message : 'refused before the run'}\n`);
  return 1;
}

if (process.env[WORKER_ENV] === '1' && typeof process.send === 'function') {
  await runWorker();
} else {
  const code = await runCli(process.argv.slice(2));
  process.exit(code);
}
