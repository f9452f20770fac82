import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PFREST_VERSION } from '@pfsense-mcp/pfsense-read';
import { checkGateReceipt, closingReadBack, preflight, targetOf } from './appliance-gate.js';
import type { ClosingReadBack, PreflightResult } from './appliance-gate.js';
import type { LabConfig } from './lab-config.js';
import { LabError } from './lab-error.js';
import { generateLabKeys, labKeySecrets } from './lab-keys.js';
import type { LabReport } from './lab-report.js';
import { PRODUCT_NAME, PRODUCT_VERSION } from './product-version.js';
import { renderHtml } from './render-html.js';
import { renderMarkdown } from './render-markdown.js';
import { runScenario } from './run-scenario.js';
import type { Interruption } from './scenario-context.js';
import type { ScenarioId } from './scenario-definition.js';
import { scenarioOf } from './scenario-registry.js';
import type { ScenarioResult } from './scenario-result.js';
import { SentinelGuard } from './sentinel-guard.js';
import type { TimelineEvent } from './timeline.js';

export interface LabOutput {
  write(text: string): void;
  readonly isTTY: boolean;
}

export interface LabRunOptions {
  readonly ids: readonly ScenarioId[];
  readonly json: boolean;
  /** --report-dir, or null for a new directory under `cwd`. */
  readonly reportDir: string | null;
  readonly cwd: string;
  readonly stdout: LabOutput;
  readonly stderr: LabOutput;
  readonly simulatorEntry: string;
  readonly workerEntry: string;
  readonly interruption: Interruption;
  /** Test-only (PFSENSE_MCP_LAB_TEST_PAUSE_AFTER): pause after this step until interrupted. */
  readonly pauseAfter: string | null;
  readonly workers: Set<{ kill(signal: NodeJS.Signals): boolean }>;
  /** Against a disposable appliance: the lab config and the gate receipt file; null on the simulator. */
  readonly lab?: { readonly config: LabConfig; readonly receiptFile: string; readonly waitDeadlineAfter: string | null } | null;
  /** Test-only: sees every secret the run registers (for the sentinel scan test). */
  readonly onSecret?: (secret: string) => void;
}

export interface LabRunOutcome {
  readonly exitCode: number;
  readonly reportDir: string;
  readonly results: readonly ScenarioResult[];
}

/** A usage error of the report directory (exit 2, before anything runs). */
export class ReportDirError extends LabError {}

/** Creates the report directory 0700; an existing non-empty one is refused. */
export function openReportDir(requested: string | null, cwd: string): string {
  if (requested === null) {
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
    return mkdtempSync(join(cwd, `lab-report-${stamp}-`));
  }
  const dir = resolve(cwd, requested);
  let exists = false;
  try {
    const st = statSync(dir);
    if (!st.isDirectory()) throw new ReportDirError('REPORT_DIR', '--report-dir names something that is not a directory');
    exists = true;
  } catch (e) {
    if (e instanceof ReportDirError) throw e;
  }
  if (exists) {
    if (readdirSync(dir).length > 0) throw new ReportDirError('REPORT_DIR', '--report-dir names a directory that is not empty');
    chmodSync(dir, 0o700);
  } else {
    mkdirSync(dir, { mode: 0o700 });
  }
  return dir;
}

function progressLine(id: string, e: TimelineEvent): string {
  const s = e.sends;
  const sends = s.forward + s.rollback + s.orchestration > 0 ? `  sends f${s.forward} r${s.rollback} o${s.orchestration}` : '';
  return `  ${id.padEnd(28)} ${e.actor.padEnd(13)} ${e.action}${e.state ? ` → ${e.state}` : ''}${sends}\n`;
}

function jsonLine(r: ScenarioResult): string {
  return `${JSON.stringify({
    id: r.id,
    ok: r.ok,
    states: r.states,
    sends: r.sends,
    final_target_matches: r.final_target_matches,
    expected: { states: r.expected_states, sends: r.expected_sends, appliance_writes: r.expected_appliance_writes },
    appliance_writes: r.appliance_writes,
    siblings_unchanged: r.siblings_unchanged,
    reconciled_on_restart: r.reconciled_on_restart,
    interrupted: r.interrupted,
    left: r.left,
    failures: r.failures,
    duration_ms: r.duration_ms,
  })}\n`;
}

/**
 * Runs the selected scenarios in parallel (each with its own simulator child and store), then writes
 * report.json, report.md and report.html (0600) into the report directory. Every line and file passes the
 * sentinel guard first.
 */
export async function runLab(options: LabRunOptions): Promise<LabRunOutcome> {
  const guard = new SentinelGuard();
  const secret = (s: string) => {
    guard.add(s);
    options.onSecret?.(s);
  };
  const say = (out: LabOutput, text: string) => out.write(guard.check(text) ?? 'pfsense-mcp-lab: output withheld: it contained a sentinel\n');
  // Against an appliance: the gate receipt before any request, then the read-only preflight — both before
  // the report directory exists, so a refusal leaves nothing behind.
  const lab = options.lab ?? null;
  let gate: { deadline: number; found: PreflightResult } | null = null;
  if (lab !== null) {
    const receipt = checkGateReceipt(lab.config, lab.receiptFile, options.ids, Date.now());
    const deadline = receipt.payload.deadline;
    const found = await preflight(lab.config, receipt, (what) => {
      if (!(Date.now() < deadline)) throw new LabError('GATE_DEADLINE', `the gate receipt's deadline passed; not started: ${what}`);
    });
    secret(found.descriptionA);
    gate = { deadline, found };
  }
  const reportDir = openReportDir(options.reportDir, options.cwd);
  const runDir = mkdtempSync(join(tmpdir(), 'pfsense-mcp-lab-run-'));
  chmodSync(runDir, 0o700);
  const started = new Date();
  const keys = generateLabKeys();
  for (const s of labKeySecrets(keys)) secret(s);
  const showProgress = options.stderr.isTTY;
  if (showProgress) say(options.stderr, `pfsense-mcp-lab: ${options.ids.length} scenario(s) against the ${gate === null ? 'simulator' : 'appliance of the lab config'}\n`);
  const results: ScenarioResult[] = [];
  const appliance =
    lab === null || gate === null
      ? null
      : {
          target: targetOf(lab.config),
          candidate: lab.config.candidateAlias,
          descriptionA: gate.found.descriptionA,
          deadline: gate.deadline,
          waitDeadlineAfter: lab.waitDeadlineAfter,
        };
  // One appliance and one candidate: its scenarios run one after the other; simulator scenarios in parallel.
  const each = async (ids: readonly ScenarioId[], run: (id: ScenarioId) => Promise<void>) => {
    if (appliance === null) await Promise.all(ids.map(run));
    else for (const id of ids) await run(id);
  };
  try {
    await each(
      options.ids,
      async (id) => {
        const result = await runScenario(scenarioOf(id), {
          keys,
          runDir,
          simulatorEntry: options.simulatorEntry,
          workerEntry: options.workerEntry,
          interruption: options.interruption,
          progress: (sid, event) => {
            if (event.action.endsWith('(test hook)')) say(options.stderr, `pfsense-mcp-lab: ${sid}: ${event.action}\n`);
            else if (showProgress) say(options.stderr, progressLine(sid, event));
          },
          pauseAfter: options.pauseAfter,
          secret,
          workers: options.workers,
          appliance,
        });
        results.push(result);
        if (options.json) say(options.stdout, jsonLine(result));
        else if (showProgress) say(options.stderr, `  ${id.padEnd(28)} ${result.ok ? 'PASS' : 'FAIL'}\n`);
      },
    );
  } finally {
    rmSync(runDir, { recursive: true, force: true });
  }
  let closing: ClosingReadBack | null = null;
  if (lab !== null && gate !== null) {
    const deadline = gate.deadline;
    closing = await closingReadBack(lab.config, gate.found.found, (what) => {
      if (!(Date.now() < deadline)) throw new LabError('GATE_DEADLINE', `the gate receipt's deadline passed; not started: ${what}`);
    });
  }
  const ordered = options.ids.map((id) => results.find((r) => r.id === id) as ScenarioResult);
  const passed = ordered.filter((r) => r.ok).length;
  const summary = { passed, failed: ordered.length - passed };
  const interrupted = options.interruption.interrupted;
  // Rendered twice: the first pass counts what the scan finds, the second reports that count.
  const build = (found: number): LabReport => ({
    report_version: 1,
    program: 'pfsense-mcp-lab',
    product: { name: PRODUCT_NAME, version: PRODUCT_VERSION },
    pfrest_version: PFREST_VERSION,
    target: gate === null ? 'simulator' : 'appliance',
    appliance:
      gate === null || closing === null
        ? null
        : {
            binding_digest: gate.found.applianceBindingDigest,
            gate_deadline: new Date(gate.deadline).toISOString(),
            preflight: gate.found.preflight,
            closing,
          },
    started_at: started.toISOString(),
    finished_at: new Date().toISOString(),
    interrupted,
    appliance_bindings: Object.fromEntries(ordered.map((r) => [r.id, r.appliance_binding_digest])),
    summary,
    sentinel_scan: { sentinels: guard.sentinels, found },
    scenarios: ordered,
  });
  const render = (report: LabReport) => ({
    'report.json': `${JSON.stringify(report, null, 2)}\n`,
    'report.md': renderMarkdown(report),
    'report.html': renderHtml(report),
  });
  const before = guard.found;
  for (const text of Object.values(render(build(0)))) guard.check(text);
  const files = render(build(guard.found));
  let withheld = guard.found - before > 0;
  for (const [name, text] of Object.entries(files)) {
    const checked = guard.check(text);
    if (checked === null) withheld = true;
    const path = join(reportDir, name);
    writeFileSync(path, checked ?? 'withheld: the report contained a sentinel\n', { mode: 0o600, flag: 'wx' });
    chmodSync(path, 0o600);
  }
  const notAsFound = closing !== null && closing.exactly_as_found !== true;
  const anyFailed = summary.failed > 0 || withheld || guard.found > 0 || notAsFound;
  if (options.json) {
    say(options.stdout, `${JSON.stringify(closing === null ? { summary } : { summary, closing })}\n`);
    say(options.stderr, `pfsense-mcp-lab: report written to ${reportDir}\n`);
  } else {
    for (const r of ordered) say(options.stdout, `${r.ok ? 'PASS' : 'FAIL'}  ${r.id.padEnd(28)} ${r.states.join(' → ')}  sends f${r.sends.forward} r${r.sends.rollback} o${r.sends.orchestration}${r.ok ? '' : `  (${r.failures[0] ?? 'failed'})`}\n`);
    if (closing !== null) say(options.stdout, `closing read-back: ${closing.exactly_as_found === true ? 'the appliance is exactly as found' : closing.exactly_as_found === false ? 'the appliance is NOT as found' : `not read (${closing.reason ?? 'unknown'})`}\n`);
    say(options.stdout, `passed ${summary.passed}, failed ${summary.failed}${interrupted ? ' (interrupted)' : ''}\nreport: ${reportDir}\n`);
  }
  return { exitCode: interrupted ? 130 : anyFailed ? 1 : 0, reportDir, results: ordered };
}
