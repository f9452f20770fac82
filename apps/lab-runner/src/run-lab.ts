import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PFREST_VERSION } from '@pfsense-mcp/pfsense-read';
import { artifactDigestOf, parseArtifact } from '@pfsense-mcp/authorization';
import { bytesToHex, hexToBytes } from '@pfsense-mcp/canonical';
import { keyIdOf, writeSecretFile } from '@pfsense-mcp/crypto';
import { LabGateError, checkGateReceipt, closingReadBack, preflight, readApplianceBindingDigest, targetOf } from './appliance-gate.js';
import type { ClosingReadBack, Preflight } from './appliance-gate.js';
import { LabConfigError } from './lab-config.js';
import type { LabConfig } from './lab-config.js';
import { evidencePins, loadOrCreateRequestKey, ownerReconciliationKey } from './lab-directory.js';
import { LabError } from './lab-error.js';
import { generateLabKeys, labKeySecrets, publicPinsOf } from './lab-keys.js';
import type { LabKeys, LabPin, LabPins } from './lab-keys.js';
import { checkOwnerEvidence, deliverToInbox, evidenceDirOf } from './owner-evidence.js';
import { createRunDir, readRunState, removeRunDir, writeRunState } from './run-state.js';
import type { RunState } from './run-state.js';
import { scenarioPaths } from './runtime-factory.js';
import type { ScenarioResume, ScenarioSnapshot } from './run-scenario.js';
import type { LabReport } from './lab-report.js';
import { PRODUCT_NAME, PRODUCT_VERSION } from './product-version.js';
import { renderHtml } from './render-html.js';
import { renderMarkdown } from './render-markdown.js';
import { runScenario } from './run-scenario.js';
import type { Interruption } from './scenario-context.js';
import type { ScenarioDefinition, ScenarioId } from './scenario-definition.js';
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
  /** `--resume RUN_ID --lab-config FILE`: continue an appliance run that stopped for the owner. */
  readonly resume?: { readonly config: LabConfig; readonly runId: string; readonly waitDeadlineAfter: string | null } | null;
  /** Test-only: sees every secret the run registers (for the sentinel scan test). */
  readonly onSecret?: (secret: string) => void;
}

export interface LabRunOutcome {
  readonly exitCode: number;
  /** Null when the run stopped for the owner (the report is written when the resumed run ends). */
  readonly reportDir: string | null;
  readonly results: readonly ScenarioResult[];
}

/** Exit code of a run that stopped at a request the owner must sign (continue with --resume). */
export const EXIT_PENDING = 4;

/** A usage error of the report directory (exit 2, before anything runs). */
export class ReportDirError extends LabError {}

/** Refuses, before anything runs, a --report-dir that names a non-directory or a non-empty directory. */
export function checkReportDir(requested: string | null, cwd: string): void {
  if (requested === null) return;
  const dir = resolve(cwd, requested);
  let st;
  try {
    st = statSync(dir);
  } catch {
    return;
  }
  if (!st.isDirectory()) throw new ReportDirError('REPORT_DIR', '--report-dir names something that is not a directory');
  if (readdirSync(dir).length > 0) throw new ReportDirError('REPORT_DIR', '--report-dir names a directory that is not empty');
}

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

/** The scenarios that need a signature of role reconciliation (a decision or a release): the owner's, against an appliance. */
export function needsOwnerReconciliation(scenario: ScenarioDefinition): boolean {
  return scenario.ownerOutcome !== null || scenario.releasesReservation;
}

/** Against an appliance, the selected scenarios that need the owner's reconciliation key need it in the lab config. */
export function checkOwnerKeyConfigured(config: LabConfig, ids: readonly ScenarioId[]): void {
  const needing = ids.filter((id) => needsOwnerReconciliation(scenarioOf(id)));
  if (needing.length > 0 && config.reconciliationPublicKeyFile === null) {
    throw new LabConfigError(
      'LAB_CONFIG',
      `--lab-config: ${needing.join(', ')} need the owner's reconciliation key: set "reconciliation_public_key_file" (a .pub from pfsense-mcp-signer keygen --role reconciliation)`,
    );
  }
}

interface ApplianceRun {
  readonly config: LabConfig;
  readonly runId: string;
  readonly runDir: string;
  readonly deadline: number;
  readonly bindingDigest: string;
  readonly receiptDigest: string;
  readonly preflight: Preflight;
  readonly found: string;
  readonly descriptionA: string;
  readonly ownerReconciliation: Uint8Array | null;
  readonly waitDeadlineAfter: string | null;
  /** Pauses so far, and the public run keys of the earlier processes. */
  readonly pauses: number;
  readonly earlier: readonly LabPin[];
}

interface Session {
  readonly ids: readonly ScenarioId[];
  readonly started: Date;
  readonly runDir: string;
  readonly appliance: ApplianceRun | null;
  readonly results: ScenarioResult[];
  readonly guard: SentinelGuard;
  secret(s: string): void;
  say(out: LabOutput, text: string): void;
}

function newSession(
  options: LabRunOptions,
  ids: readonly ScenarioId[],
  started: Date,
  runDir: string,
  appliance: ApplianceRun | null,
  results: ScenarioResult[],
): Session {
  const guard = new SentinelGuard();
  return {
    ids,
    started,
    runDir,
    appliance,
    results,
    guard,
    secret(s: string) {
      guard.add(s);
      options.onSecret?.(s);
    },
    say(out: LabOutput, text: string) {
      out.write(guard.check(text) ?? 'pfsense-mcp-lab: output withheld: it contained a sentinel\n');
    },
  };
}

const deadlineCheck = (deadline: number) => (what: string) => {
  if (!(Date.now() < deadline)) throw new LabError('GATE_DEADLINE', `the gate receipt's deadline passed; not started: ${what}`);
};

/**
 * Runs the selected scenarios — on the simulator in parallel (each with its own simulator child and store);
 * against an appliance one after the other, stopping (exit 4) at a request the owner must sign — then writes
 * report.json, report.md and report.html (0600) into the report directory. Every line and file passes the
 * sentinel guard first.
 */
export async function runLab(options: LabRunOptions): Promise<LabRunOutcome> {
  if (options.resume != null) return resumeLab(options, options.resume);
  const lab = options.lab ?? null;
  if (lab === null) {
    const reportDir = openReportDir(options.reportDir, options.cwd);
    const runDir = mkdtempSync(join(tmpdir(), 'pfsense-mcp-lab-run-'));
    chmodSync(runDir, 0o700);
    const session = newSession(options, options.ids, new Date(), runDir, null, []);
    return continueRun(session, options, 0, null, reportDir);
  }
  // Against an appliance: the gate receipt before any request, then the read-only preflight — both before
  // anything is written, so a refusal leaves nothing behind.
  checkOwnerKeyConfigured(lab.config, options.ids);
  checkReportDir(options.reportDir, options.cwd);
  const ownerReconciliation = ownerReconciliationKey(lab.config);
  const receipt = checkGateReceipt(lab.config, lab.receiptFile, options.ids, Date.now());
  const deadline = receipt.payload.deadline;
  const found = await preflight(lab.config, receipt, deadlineCheck(deadline));
  const { runId, runDir } = createRunDir(lab.config);
  // The run keeps its own copy of the receipt: a resume checks that one again (deadline, bindings).
  writeSecretFile(join(runDir, 'gate-receipt.json'), readFileSync(lab.receiptFile));
  const appliance: ApplianceRun = {
    config: lab.config,
    runId,
    runDir,
    deadline,
    bindingDigest: found.applianceBindingDigest,
    receiptDigest: artifactDigestOf(receipt),
    preflight: found.preflight,
    found: found.found,
    descriptionA: found.descriptionA,
    ownerReconciliation,
    waitDeadlineAfter: lab.waitDeadlineAfter,
    pauses: 0,
    earlier: [],
  };
  const session = newSession(options, options.ids, new Date(), runDir, appliance, []);
  session.secret(found.descriptionA);
  return continueRun(session, options, 0, null, null);
}

/**
 * `--resume RUN_ID --lab-config FILE`: the run's signed state, the same appliance URL/TLS mode/candidate in the
 * lab config, its gate receipt still unexpired and binding the same scenarios, the owner's signed answer in the
 * evidence directory the pause printed, and the appliance found the one of the run — all before any change.
 */
async function resumeLab(options: LabRunOptions, resume: NonNullable<LabRunOptions['resume']>): Promise<LabRunOutcome> {
  const config = resume.config;
  const runner = loadOrCreateRequestKey(config);
  let state: RunState;
  let runDir: string;
  try {
    ({ state, runDir } = readRunState(config, resume.runId, runner));
  } finally {
    runner.privateKey.fill(0);
  }
  if (
    state.appliance.url !== config.url ||
    state.appliance.tls_mode !== config.tlsMode ||
    state.appliance.candidate !== config.candidateAlias
  ) {
    throw new LabGateError(
      'GATE_WRONG_APPLIANCE',
      '--resume: the lab config names another appliance URL, TLS mode or candidate than the run',
    );
  }
  const ownerReconciliation = ownerReconciliationKey(config);
  if (ownerReconciliation === null)
    throw new LabConfigError(
      'LAB_CONFIG',
      '--resume: the lab config needs "reconciliation_public_key_file" (the owner\'s reconciliation key)',
    );
  checkReportDir(options.reportDir, options.cwd);
  const receipt = checkGateReceipt(config, join(runDir, 'gate-receipt.json'), state.ids, Date.now());
  if (artifactDigestOf(receipt) !== state.appliance.receipt_digest || receipt.payload.deadline !== state.appliance.deadline) {
    throw new LabGateError('GATE_BINDING_MISMATCH', "--resume: the run's gate receipt is not the one it started with");
  }
  const paused = state.paused;
  const earlier = state.earlier_keys.map((k) => Object.freeze({ role: k.role, publicKey: hexToBytes(k.public_key) }));
  const pendingPath = join(scenarioPaths(join(runDir, paused.scenario)).subjectOutbox, paused.pending.pendingFile);
  const evidence = checkOwnerEvidence(
    evidenceDirOf(runDir, state.pauses),
    pendingPath,
    paused.pending,
    evidencePins(config, ownerReconciliation, earlier),
  );
  const deadline = state.appliance.deadline;
  deadlineCheck(deadline)('resume: appliance binding read');
  const digest = await readApplianceBindingDigest(config);
  if (digest !== state.appliance.binding_digest)
    throw new LabGateError('GATE_WRONG_APPLIANCE', '--resume: the appliance found is not the one of the run');
  deliverToInbox(scenarioPaths(join(runDir, paused.scenario)).subjectInbox, evidence.fileName, evidence.bytes);
  const appliance: ApplianceRun = {
    config,
    runId: state.run_id,
    runDir,
    deadline,
    bindingDigest: state.appliance.binding_digest,
    receiptDigest: state.appliance.receipt_digest,
    preflight: state.preflight,
    found: state.found,
    descriptionA: state.description_a,
    ownerReconciliation,
    waitDeadlineAfter: resume.waitDeadlineAfter,
    pauses: state.pauses,
    earlier,
  };
  const session = newSession(options, state.ids, new Date(state.started_at), runDir, appliance, [...state.results]);
  session.secret(state.description_a);
  if (options.stderr.isTTY)
    session.say(
      options.stderr,
      `pfsense-mcp-lab: resuming run ${state.run_id} at ${paused.scenario} (the owner's ${paused.pending.request} verified)\n`,
    );
  return continueRun(session, options, state.ids.indexOf(paused.scenario), { snapshot: paused, ownerSigned: evidence.record }, null);
}

function progressOf(session: Session, options: LabRunOptions) {
  return (sid: string, event: TimelineEvent) => {
    if (event.action.endsWith('(test hook)')) session.say(options.stderr, `pfsense-mcp-lab: ${sid}: ${event.action}\n`);
    else if (options.stderr.isTTY) session.say(options.stderr, progressLine(sid, event));
  };
}

/** Runs the session's scenarios from index `from` (the first one resumed when `resume` is given). */
async function continueRun(
  session: Session,
  options: LabRunOptions,
  from: number,
  resume: ScenarioResume | null,
  reportDirOpened: string | null,
): Promise<LabRunOutcome> {
  const keys = generateLabKeys();
  for (const s of labKeySecrets(keys)) session.secret(s);
  const a = session.appliance;
  const pins: LabPins = { earlier: a?.earlier ?? [], ownerReconciliation: a?.ownerReconciliation ?? null };
  const showProgress = options.stderr.isTTY;
  if (showProgress && resume === null)
    session.say(
      options.stderr,
      `pfsense-mcp-lab: ${session.ids.length} scenario(s) against the ${a === null ? 'simulator' : 'appliance of the lab config'}\n`,
    );
  const target =
    a === null
      ? null
      : {
          target: targetOf(a.config),
          candidate: a.config.candidateAlias,
          descriptionA: a.descriptionA,
          deadline: a.deadline,
          waitDeadlineAfter: a.waitDeadlineAfter,
          ownerDecides: true,
        };
  const base = {
    keys,
    pins,
    runDir: session.runDir,
    simulatorEntry: options.simulatorEntry,
    workerEntry: options.workerEntry,
    interruption: options.interruption,
    progress: progressOf(session, options),
    pauseAfter: options.pauseAfter,
    secret: (v: string) => session.secret(v),
    workers: options.workers,
    appliance: target,
  };
  const finished = (result: ScenarioResult) => {
    session.results.push(result);
    if (options.json) session.say(options.stdout, jsonLine(result));
    else if (showProgress) session.say(options.stderr, `  ${result.id.padEnd(28)} ${result.ok ? 'PASS' : 'FAIL'}\n`);
  };
  if (a === null) {
    // One simulator per scenario: they run in parallel, and never stop for an owner (the runner plays it).
    try {
      await Promise.all(
        session.ids.map(async (id) => {
          const outcome = await runScenario(scenarioOf(id), { ...base, resume: null });
          if (outcome.kind !== 'done') throw new LabError('UNEXPECTED_PAUSE', 'a simulator scenario stopped for an owner');
          finished(outcome.result);
        }),
      );
    } finally {
      rmSync(session.runDir, { recursive: true, force: true });
    }
    return finish(session, options, null, reportDirOpened);
  }
  // One appliance and one candidate: its scenarios run one after the other.
  for (let i = from; i < session.ids.length; i += 1) {
    const id = session.ids[i] as ScenarioId;
    const outcome = await runScenario(scenarioOf(id), { ...base, resume: i === from ? resume : null });
    if (outcome.kind === 'paused') return pause(session, options, a, keys, outcome.snapshot);
    finished(outcome.result);
  }
  removeRunDir(session.runDir);
  const closing = await closingReadBack(a.config, a.found, deadlineCheck(a.deadline));
  return finish(session, options, closing, null);
}

const shellQuote = (s: string): string => (/^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/**
 * The scenario stopped at a request the owner must sign: the state (signed by the runner's request key) and the
 * public half of the server key that signed the request go into the run's directory, an empty evidence
 * directory is made for the signer's answer, and the exact commands are printed. Exit 4.
 */
function pause(session: Session, options: LabRunOptions, a: ApplianceRun, keys: LabKeys, snapshot: ScenarioSnapshot): LabRunOutcome {
  const pauses = a.pauses + 1;
  const earlier = [...a.earlier, ...publicPinsOf(keys)];
  const state: RunState = {
    version: 1,
    run_id: a.runId,
    started_at: session.started.toISOString(),
    ids: [...session.ids],
    appliance: {
      url: a.config.url,
      tls_mode: a.config.tlsMode,
      candidate: a.config.candidateAlias,
      binding_digest: a.bindingDigest,
      deadline: a.deadline,
      receipt_digest: a.receiptDigest,
    },
    preflight: a.preflight,
    found: a.found,
    description_a: a.descriptionA,
    results: [...session.results],
    paused: snapshot,
    pauses,
    earlier_keys: earlier.map((p) => ({ role: p.role, public_key: bytesToHex(p.publicKey) })),
  };
  const serverKeyFile = join(a.runDir, `server-request-${pauses}.pub`);
  writeSecretFile(serverKeyFile, `${bytesToHex(keys.server.publicKey)}\n`);
  const evidenceDir = evidenceDirOf(a.runDir, pauses);
  mkdirSync(evidenceDir, { mode: 0o700 });
  const runner = loadOrCreateRequestKey(a.config);
  try {
    writeRunState(a.runDir, state, runner);
  } finally {
    runner.privateKey.fill(0);
  }
  const pending = join(scenarioPaths(join(a.runDir, snapshot.scenario)).subjectOutbox, snapshot.pending.pendingFile);
  // The request's own digest: what the signer shows as the approval prefix (its first 12 hex).
  let requestDigest: string | null;
  try {
    requestDigest = artifactDigestOf(parseArtifact(readFileSync(pending)));
  } catch {
    requestDigest = null;
  }
  const ownerKeyId = a.ownerReconciliation === null ? '<id>' : keyIdOf(a.ownerReconciliation).slice(0, 16);
  const signer = [
    'pfsense-mcp-signer',
    'sign',
    pending,
    '--key',
    `reconciliation-${ownerKeyId}.key`,
    '--server-key',
    serverKeyFile,
    ...(snapshot.pending.observed === null ? [] : ['--outcome', snapshot.pending.observed]),
    '--out',
    evidenceDir,
  ]
    .map(shellQuote)
    .join(' ');
  const resumeCommand = ['npm', 'run', 'lab', '--', '--resume', a.runId, '--lab-config', a.config.configFile].map(shellQuote).join(' ');
  if (options.json) {
    session.say(
      options.stdout,
      `${JSON.stringify({
        pending: {
          run_id: a.runId,
          scenario: snapshot.scenario,
          request: snapshot.pending.request,
          pending_request: pending,
          request_digest: requestDigest,
          observed: snapshot.pending.observed,
          server_key_file: serverKeyFile,
          evidence_dir: evidenceDir,
          signer_command: signer,
          resume_command: resumeCommand,
        },
      })}\n`,
    );
  } else {
    session.say(
      options.stdout,
      [
        `STOPPED ${snapshot.scenario}: a pending ${snapshot.pending.request} request needs the owner's signature`,
        `  run id            ${a.runId}`,
        `  pending request   ${pending}`,
        ...(snapshot.pending.observed === null
          ? []
          : [`  runner observed   ${snapshot.pending.observed} (check the appliance yourself; if you do not know, do not sign)`]),
        `sign it:   ${signer}`,
        `then:      ${resumeCommand}`,
        '',
      ].join('\n'),
    );
  }
  session.say(
    options.stderr,
    `pfsense-mcp-lab: run ${a.runId} stopped for the owner (${snapshot.scenario}: ${snapshot.pending.request}); resume with --resume ${a.runId}\n`,
  );
  return { exitCode: EXIT_PENDING, reportDir: null, results: [...session.results] };
}

/** The closing step of a run: the report files and the summary. */
function finish(session: Session, options: LabRunOptions, closing: ClosingReadBack | null, opened: string | null): LabRunOutcome {
  const { guard, say } = session;
  const a = session.appliance;
  const reportDir = opened ?? openReportDir(options.reportDir, options.cwd);
  const ordered = session.ids.map((id) => session.results.find((r) => r.id === id)).filter((r): r is ScenarioResult => r !== undefined);
  const passed = ordered.filter((r) => r.ok).length;
  const summary = { passed, failed: ordered.length - passed };
  const interrupted = options.interruption.interrupted;
  // Rendered twice: the first pass counts what the scan finds, the second reports that count.
  const build = (found: number): LabReport => ({
    report_version: 1,
    program: 'pfsense-mcp-lab',
    product: { name: PRODUCT_NAME, version: PRODUCT_VERSION },
    pfrest_version: PFREST_VERSION,
    target: a === null ? 'simulator' : 'appliance',
    appliance:
      a === null || closing === null
        ? null
        : {
            binding_digest: a.bindingDigest,
            gate_deadline: new Date(a.deadline).toISOString(),
            preflight: a.preflight,
            closing,
            run_id: a.runId,
            owner_pauses: a.pauses,
          },
    started_at: session.started.toISOString(),
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
    for (const r of ordered)
      say(
        options.stdout,
        `${r.ok ? 'PASS' : 'FAIL'}  ${r.id.padEnd(28)} ${r.states.join(' → ')}  sends f${r.sends.forward} r${r.sends.rollback} o${r.sends.orchestration}${r.ok ? '' : `  (${r.failures[0] ?? 'failed'})`}\n`,
      );
    if (closing !== null)
      say(
        options.stdout,
        `closing read-back: ${closing.exactly_as_found === true ? 'the appliance is exactly as found' : closing.exactly_as_found === false ? 'the appliance is NOT as found' : `not read (${closing.reason ?? 'unknown'})`}\n`,
      );
    say(options.stdout, `passed ${summary.passed}, failed ${summary.failed}${interrupted ? ' (interrupted)' : ''}\nreport: ${reportDir}\n`);
  }
  return { exitCode: interrupted ? 130 : anyFailed ? 1 : 0, reportDir, results: ordered };
}
