import { fork } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { aliasTargetFingerprint } from '@pfsense-mcp/adapters';
import { applianceBindingDigest } from '@pfsense-mcp/authorization';
import { bytesToHex } from '@pfsense-mcp/canonical';
import { generateMasterKey, readApiKeyFile, readMasterKeyFile, writeMasterKeyFile } from '@pfsense-mcp/crypto';
import { RecoveryState } from '@pfsense-mcp/state-machine';
import { LabError, LabInterruptedError } from './lab-error.js';
import { ALIAS_PATH, CANDIDATE_ALIAS, DESCRIPTION_A, LAB_TLS_MODE, SIBLING_ALIASES } from './lab-fixture.js';
import { NO_PINS, labKeysToWire, labPinsToWire } from './lab-keys.js';
import type { LabKeys, LabPins } from './lab-keys.js';
import { LabOwner } from './lab-owner.js';
import type { SignedRecord } from './lab-owner.js';
import { OwnerPause } from './owner-pause.js';
import type { OwnerPauseInfo } from './owner-pause.js';
import { restoreA, restoreEntries } from './orchestrator.js';
import { tableMatchesAlias } from './pf-observation.js';
import { buildLabRuntime, scenarioPaths } from './runtime-factory.js';
import type { LabRuntime, LabTarget } from './runtime-factory.js';
import { ScenarioContext } from './scenario-context.js';
import type { Interruption, ScenarioTargetOptions, StepProgress } from './scenario-context.js';
import type { ScenarioDefinition, ScenarioId } from './scenario-definition.js';
import { planOf, runSteps } from './scenario-plans.js';
import { signRollbackIfAsked } from './subject-flow.js';
import { applyRunsOwnPending } from './entries-flow.js';
import type { LeftState, ScenarioResult } from './scenario-result.js';
import type { SendCounts, TimelineEvent } from './timeline.js';
import { startSimulatorChild } from './simulator-child.js';
import type { SimulatorChild } from './simulator-child.js';
import { WORKER_ENV, workerMessageSchema } from './worker-protocol.js';

export interface ScenarioRunOptions {
  readonly keys: LabKeys;
  /** The run's private 0700 directory; the scenario gets its own subdirectory. */
  readonly runDir: string;
  readonly simulatorEntry: string;
  /** The built runner bundle, forked as a G worker. */
  readonly workerEntry: string;
  readonly interruption: Interruption;
  readonly progress: StepProgress;
  /** Test-only: pause after this step label until interrupted. */
  readonly pauseAfter: string | null;
  /** Receives every secret this scenario handles (API key, master key), for the output sentinel scan. */
  readonly secret: (value: string) => void;
  /** Receives each live worker (so an interruption can kill it). */
  readonly workers: Set<{ kill(signal: NodeJS.Signals): boolean }>;
  /** Against a lab config's appliance (instead of a simulator child of its own), or null. */
  readonly appliance: ApplianceScenarioTarget | null;
  /** Public keys pinned besides `keys` (earlier processes of a resumed run; the owner's reconciliation key). */
  readonly pins?: LabPins;
  /** Continue a scenario that stopped for the owner (its saved context and the owner's evidence, already in its inbox). */
  readonly resume?: ScenarioResume | null;
}

/** Everything a later process needs to continue a scenario that stopped for the owner (no secret, no value). */
export interface ScenarioSnapshot {
  readonly scenario: ScenarioId;
  /** Which step list the next step indexes: the in-process plan, or a G plan's afterRestart. */
  readonly phase: 'in-process' | 'after-restart';
  readonly next_step: number;
  readonly pending: OwnerPauseInfo;
  readonly started_at_ms: number;
  readonly subject_contract_id: string | null;
  readonly orchestration_contract_ids: readonly string[];
  readonly baseline: { readonly fingerprint: string; readonly bFingerprint: string; readonly siblings: string };
  readonly appliance_binding_digest: string | null;
  readonly reconciled_on_restart: number | null;
  readonly counts: SendCounts;
  readonly signed: readonly SignedRecord[];
  readonly events: readonly TimelineEvent[];
}

export interface ScenarioResume {
  readonly snapshot: ScenarioSnapshot;
  /** The owner's signed answer to the pending request, as verified by the resume (digests only). */
  readonly ownerSigned: SignedRecord;
}

export type ScenarioOutcome =
  { readonly kind: 'done'; readonly result: ScenarioResult } | { readonly kind: 'paused'; readonly snapshot: ScenarioSnapshot };

/** One scenario against the appliance of a lab config: shared target, found A, the gate's deadline. */
export interface ApplianceScenarioTarget extends ScenarioTargetOptions {
  readonly target: LabTarget;
}

const WORKER_TIMEOUT_MS = 120_000;

function failureOf(e: unknown): string {
  if (e instanceof LabError) return e.message;
  if (e instanceof Error) {
    const code = (e as { code?: unknown }).code;
    return typeof code === 'string' && /^[A-Z0-9_]{1,64}$/.test(code) ? `${e.name}: ${code}` : e.name;
  }
  return 'ERROR';
}

/** The siblings as the appliance returned them: the simulator's two fixed ones, or every other alias of an appliance. */
function siblingsBytes(aliases: readonly unknown[], candidate: string | null = null): string {
  if (candidate !== null) return JSON.stringify(aliases.filter((a) => (a as { name?: unknown }).name !== candidate));
  const picked = SIBLING_ALIASES.map((name) => aliases.find((a) => (a as { name?: unknown }).name === name) ?? null);
  return JSON.stringify(picked);
}

function statesOf(runtime: LabRuntime, contractId: string): string[] {
  return runtime.store
    .listAuditEvents({ contractId, limit: 1000 })
    .filter((e) => e.kind === 'transition' && e.to_state !== null)
    .map((e) => e.to_state as string);
}

function prepareScenarioDir(runDir: string, id: string): string {
  const dir = join(runDir, id);
  mkdirSync(dir, { mode: 0o700 });
  const p = scenarioPaths(dir);
  mkdirSync(p.storeDir, { mode: 0o700 });
  for (const d of [
    join(dir, 'subject'),
    join(dir, 'orchestration'),
    p.subjectInbox,
    p.subjectOutbox,
    p.orchestrationInbox,
    p.orchestrationOutbox,
  ]) {
    mkdirSync(d, { mode: 0o700 });
  }
  return dir;
}

type WorkerEnd =
  | { readonly kind: 'kill-point'; readonly label: string; readonly subjectContractId: string | null }
  | { readonly kind: 'done'; readonly orchestrationContractIds: readonly string[]; readonly reconciled: number | null }
  | { readonly kind: 'failed'; readonly message: string };

/**
 * Forks the built runner as a worker for one phase of a G scenario and collects its events. `before-kill`
 * ends at the worker's kill point, where this process SIGKILLs it; `after-restart` ends when the new process
 * finished the plan (an interruption is passed on, so it stops between steps like the runner does).
 */
async function runWorkerPhase(
  ctx: ScenarioContext,
  phase: 'before-kill' | 'after-restart',
  scenarioDir: string,
  target: LabTarget,
  options: ScenarioRunOptions,
): Promise<void> {
  const child = fork(options.workerEntry, [], {
    env: { ...process.env, [WORKER_ENV]: '1' },
    execArgv: [],
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    detached: true,
  });
  options.workers.add(child);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  // Node may emit 'exit' while the worker's last messages (its `failed` reason) are still unread in the IPC
  // pipe; the channel's 'disconnect' comes once the pipe is drained. Only both together mean "gone, and said
  // all it will say" — else a worker's own failure would be reported as a bare WORKER_EXITED.
  const gone = Promise.all([exited, new Promise<void>((resolve) => (child.connected ? child.once('disconnect', resolve) : resolve()))]);
  const baseline = ctx.baseline as NonNullable<typeof ctx.baseline>;
  try {
    let reconciled: number | null = null;
    let paused: { info: OwnerPauseInfo; nextStep: number } | null = null;
    const end = await new Promise<WorkerEnd>((resolve) => {
      // A bound on silence, not on the phase: every worker message (an event, a signature) restarts it, so a phase
      // that is slow under load but moving never times out; only a worker that says nothing for the whole bound does.
      let ended = false;
      let timer: NodeJS.Timeout | undefined;
      const finish = (e: WorkerEnd) => {
        ended = true;
        clearTimeout(timer);
        resolve(e);
      };
      const silent = () => finish({ kind: 'failed', message: 'WORKER_TIMEOUT: the worker said nothing for too long' });
      timer = setTimeout(silent, WORKER_TIMEOUT_MS);
      void options.interruption.whenInterrupted.then(() => {
        if (phase === 'before-kill') finish({ kind: 'failed', message: 'INTERRUPTED' });
        else if (child.connected) child.send({ type: 'interrupt' });
      });
      child.on('message', (raw) => {
        clearTimeout(timer);
        if (!ended) timer = setTimeout(silent, WORKER_TIMEOUT_MS);
        const m = workerMessageSchema.safeParse(raw);
        if (!m.success) return finish({ kind: 'failed', message: 'WORKER_PROTOCOL: an unreadable worker message' });
        const msg = m.data;
        if (msg.type === 'event') ctx.append(msg.event);
        else if (msg.type === 'signed') ctx.signed.push(Object.freeze(msg.signed));
        else if (msg.type === 'restarted') reconciled = msg.reconciled;
        else if (msg.type === 'paused')
          paused = { info: { pendingFile: msg.pendingFile, request: msg.request, observed: msg.observed }, nextStep: msg.nextStep };
        else if (msg.type === 'kill-point') finish({ kind: 'kill-point', label: msg.label, subjectContractId: msg.subjectContractId });
        else if (msg.type === 'done') finish({ kind: 'done', orchestrationContractIds: msg.orchestrationContractIds, reconciled });
        else finish({ kind: 'failed', message: msg.message });
      });
      void gone.then(([x]) =>
        finish({
          kind: 'failed',
          message: `WORKER_EXITED: the worker exited (${x.signal ?? `code ${x.code ?? '?'}`}) before the end of its phase, saying nothing`,
        }),
      );
      child.send({
        type: 'job',
        phase,
        scenarioId: ctx.scenario.id,
        baseline: { fingerprint: baseline.fingerprint, bFingerprint: baseline.bFingerprint },
        subjectContractId: ctx.subjectContractId,
        orchestrationContractIds: [...ctx.orchestrationContractIds],
        scenarioDir,
        target: {
          url: target.url,
          apiKeyFile: target.apiKeyFile,
          caFile: target.caFile ?? null,
          tlsMode: target.tlsMode ?? LAB_TLS_MODE,
          simulated: target.simulated !== false,
        },
        appliance:
          options.appliance === null || ctx.deadline === null
            ? null
            : { candidate: ctx.candidate, descriptionA: ctx.descriptionA, deadline: ctx.deadline, ownerDecides: ctx.ownerDecides },
        keys: labKeysToWire(options.keys),
        pins: labPinsToWire(options.pins ?? NO_PINS),
      });
    });
    if (phase === 'before-kill') child.kill('SIGKILL');
    const exit = await exited;
    if (end.kind === 'failed') {
      if (end.message === 'INTERRUPTED') throw new LabInterruptedError();
      throw new LabError('WORKER_FAILED', end.message);
    }
    if (end.kind === 'kill-point') {
      ctx.subjectContractId = end.subjectContractId;
      ctx.record('runner', `worker SIGKILLed (${exit.signal ?? 'exited'}) at: ${end.label}`);
      if (exit.signal !== 'SIGKILL') throw new LabError('NOT_KILLED', 'the worker was not killed by SIGKILL');
    } else {
      ctx.reconciledOnRestart = end.reconciled;
      for (const id of end.orchestrationContractIds) if (!ctx.orchestrationContractIds.includes(id)) ctx.orchestrationContractIds.push(id);
      ctx.record('runner', `restarted worker finished (exit ${exit.code ?? exit.signal})`);
      const p = paused as { info: OwnerPauseInfo; nextStep: number } | null;
      if (p !== null) throw new OwnerPause(p.info, p.nextStep);
    }
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    options.workers.delete(child);
  }
}

/**
 * After a failure or an interruption: no further scenario step; bring the candidate back to A through the
 * sealed path where that is safe — the subject's own rollback when it is VERIFIED, else an orchestration
 * contract when no contract holds the target — or say exactly what was left.
 */
async function recover(ctx: ScenarioContext): Promise<LeftState> {
  const rt = ctx.runtime;
  const stateNow = () => ctx.subjectState();
  const isOriginal = async (): Promise<boolean | null> => {
    try {
      return aliasTargetFingerprint(await rt.readAlias(ctx.candidate)) === ctx.baseline?.fingerprint;
    } catch {
      return null;
    }
  };
  if (ctx.deadline !== null && !(Date.now() < ctx.deadline)) {
    return {
      action: 'left-as-is',
      subject_state: stateNow(),
      candidate_is_original: null,
      reason: 'the gate deadline passed: no recovery action may start',
    };
  }
  try {
    if (stateNow() === RecoveryState.VERIFIED && ctx.subjectContractId !== null) {
      const before = rt.subjectSends();
      await signRollbackIfAsked(ctx, ctx.subjectContractId);
      await rt.subject.driver.rollback(ctx.subjectContractId);
      ctx.record('runner', 'recovery: sealed rollback of the subject', { rollback: rt.subjectSends() - before });
      return {
        action: 'sealed-rollback',
        subject_state: stateNow(),
        candidate_is_original: await isOriginal(),
        reason: 'the subject was VERIFIED',
      };
    }
    const original = await isOriginal();
    if (original !== false)
      return {
        action: 'none',
        subject_state: stateNow(),
        candidate_is_original: original,
        reason: original ? 'the candidate is A' : 'the candidate could not be read',
      };
    const holding = rt.store.list({ limit: 100 }).filter((c) => rt.store.holdsReservation(c.contract_id));
    if (holding.length > 0) {
      return {
        action: 'left-as-is',
        subject_state: stateNow(),
        candidate_is_original: false,
        reason: 'a contract holds the target (reconciliation or release needs the owner)',
      };
    }
    if (ctx.scenario.capability === 'entries') await restoreEntries(ctx);
    if ((await isOriginal()) === false) await restoreA(ctx);
    return {
      action: 'orchestration-restore',
      subject_state: stateNow(),
      candidate_is_original: await isOriginal(),
      reason: 'restored by its own confirmed contract',
    };
  } catch (e) {
    return {
      action: 'left-as-is',
      subject_state: stateNow(),
      candidate_is_original: await isOriginal(),
      reason: `recovery stopped: ${failureOf(e)}`,
    };
  }
}

/** Runs one scenario against its own simulator child and checks its declaration. */
export async function runScenario(scenario: ScenarioDefinition, options: ScenarioRunOptions): Promise<ScenarioOutcome> {
  const resume = options.resume ?? null;
  const started = resume?.snapshot.started_at_ms ?? Date.now();
  const failures: string[] = [];
  let scenarioDir: string;
  if (resume === null) {
    scenarioDir = prepareScenarioDir(options.runDir, scenario.id);
    const masterKey = generateMasterKey();
    options.secret(bytesToHex(masterKey));
    writeMasterKeyFile(scenarioPaths(scenarioDir).masterKeyFile, masterKey);
    masterKey.fill(0);
  } else {
    // A resumed scenario reopens its own store: its master key file stayed in the run's directory.
    scenarioDir = join(options.runDir, scenario.id);
    const masterKey = readMasterKeyFile(scenarioPaths(scenarioDir).masterKeyFile);
    options.secret(bytesToHex(masterKey));
    masterKey.fill(0);
  }
  let sim: SimulatorChild | undefined;
  let ctx: ScenarioContext | undefined;
  let interrupted = false;
  let left: LeftState | null = null;
  let applianceWrites: number | null = null;
  let finalMatches = false;
  let siblingsUnchanged = false;
  let states: string[] = [];
  let orchestrationStates: string[][] = [];
  try {
    const onAppliance = options.appliance;
    let target: LabTarget;
    if (onAppliance === null) {
      sim = await startSimulatorChild(scenarioDir, options.simulatorEntry);
      target = { url: sim.url, apiKeyFile: sim.apiKeyFile };
    } else {
      target = onAppliance.target;
    }
    options.secret(readApiKeyFile(target.apiKeyFile));
    const candidate = onAppliance?.candidate ?? CANDIDATE_ALIAS;
    const ownSiblings = onAppliance === null ? null : candidate;
    const fixed = { simulator: target, scenarioDir, keys: options.keys, pins: options.pins ?? NO_PINS };
    const runtime = await buildLabRuntime(scenario, fixed);
    const c = new ScenarioContext(
      scenario,
      runtime,
      new LabOwner(options.keys),
      options.interruption,
      options.progress,
      options.pauseAfter,
      {
        ...(onAppliance ?? { candidate: CANDIDATE_ALIAS, descriptionA: DESCRIPTION_A, deadline: null }),
        startedAt: started,
      },
    );
    ctx = c;
    const plan = planOf(scenario.id);
    if (resume === null) {
      c.beforeAction('baseline read');
      c.applianceBindingDigest = applianceBindingDigest(await runtime.readApplianceBinding());
      const found = await runtime.readAlias(candidate);
      c.setBaseline(found, siblingsBytes(await runtime.readAliases(), ownSiblings));
      c.record('runner', 'baseline read (A fingerprint, siblings)');
      if (onAppliance !== null && scenario.capability === 'entries') await applyRunsOwnPending(c);
    } else {
      restoreContext(c, resume);
    }
    try {
      if (resume !== null) {
        // A new process, its runtime rebuilt from the scenario's store; the owner's evidence is in the inbox.
        await runSteps(c, plan.kind === 'in-process' ? plan.steps : plan.afterRestart, resume.snapshot.next_step);
      } else if (plan.kind === 'in-process') {
        await runSteps(c, plan.steps);
      } else {
        // Two worker processes: one killed at the kill point, a new one rebuilt from the store alone. This
        // process holds no runtime meanwhile; it rebuilds one afterwards for the final checks only.
        runtime.close();
        await runWorkerPhase(c, 'before-kill', scenarioDir, target, options);
        await c.checkpoint('restart');
        await runWorkerPhase(c, 'after-restart', scenarioDir, target, options);
        c.restart(await buildLabRuntime(scenario, fixed));
      }
    } catch (e) {
      if (e instanceof OwnerPause) {
        // Stopped for the owner: no recovery, no final read — the contract holds the target until the
        // owner's answer; `--resume` continues with the next step.
        return { kind: 'paused', snapshot: snapshotOf(c, plan.kind === 'restart' ? 'after-restart' : 'in-process', e) };
      }
      interrupted = e instanceof LabInterruptedError;
      failures.push(failureOf(e));
      left = await recoverWithRuntime(c, scenario, fixed);
    }
    const rt = c.runtime;
    // The local store first (no appliance request): states and the audit chain are known even if the deadline
    // then forbids the final read.
    states = c.subjectContractId === null ? [] : statesOf(rt, c.subjectContractId);
    orchestrationStates = c.orchestrationContractIds.map((id) => statesOf(rt, id));
    if (!rt.store.verifyAuditChain().ok) failures.push('AUDIT_CHAIN: the store audit chain did not verify');
    c.beforeAction('final read');
    const finalTarget = await rt.readAlias(candidate);
    const baseline = c.baseline as NonNullable<typeof c.baseline>;
    // An entries scenario also ends with pf as before: the candidate's table holds exactly its (original) entries.
    finalMatches =
      aliasTargetFingerprint(finalTarget) === baseline.fingerprint && (scenario.capability !== 'entries' || (await tableMatchesAlias(c)));
    siblingsUnchanged = siblingsBytes(await rt.readAliases(), ownSiblings) === baseline.siblings;
    c.record('runner', 'final read (fingerprint compared with A, siblings compared)');
    // An appliance has no simulator counters: its sends are the proxies' counts alone.
    applianceWrites = onAppliance === null ? ((await rt.applianceCounters())[`PATCH ${ALIAS_PATH}`] ?? 0) : null;
  } catch (e) {
    failures.push(failureOf(e));
  } finally {
    ctx?.runtime.close();
    await sim?.stop();
  }
  const c = ctx;
  const sends = c === undefined ? { forward: 0, rollback: 0, orchestration: 0 } : { ...c.counts };
  const check = (ok: boolean, what: string) => {
    if (!ok) failures.push(what);
  };
  if (failures.length === 0) {
    check(JSON.stringify(states) === JSON.stringify(scenario.states), 'STATES: the subject states differ from the declaration');
    check(sends.forward === scenario.sends.forward, 'SENDS_FORWARD: forward sends differ from the declaration');
    check(sends.rollback === scenario.sends.rollback, 'SENDS_ROLLBACK: rollback sends differ from the declaration');
    check(sends.orchestration === scenario.sends.orchestration, 'SENDS_ORCHESTRATION: orchestration sends differ from the declaration');
    if (options.appliance === null) {
      check(applianceWrites === scenario.applianceWrites, 'APPLIANCE_WRITES: the simulator counted other alias writes than declared');
      check(
        applianceWrites === sends.forward + sends.rollback + sends.orchestration,
        'APPLIANCE_VS_PROXIES: the simulator and the proxies disagree',
      );
    }
    check(
      c?.reconciledOnRestart === scenario.reconciledOnRestart,
      'RESTART_RECONCILIATION: the restart reconciled other contracts than declared',
    );
    check(
      orchestrationStates.every((s) => s[s.length - 1] === RecoveryState.VERIFIED),
      'ORCHESTRATION_STATES: an orchestration contract did not end VERIFIED',
    );
  }
  check(finalMatches, 'FINAL_TARGET: a fresh read of the candidate is not A (fingerprint)');
  check(siblingsUnchanged, 'SIBLINGS: a sibling alias changed');
  return {
    kind: 'done',
    result: Object.freeze({
      id: scenario.id,
      ok: failures.length === 0,
      proves: scenario.proves,
      fault: {
        kind: scenario.fault.kind,
        phase: scenario.fault.phase,
        upstream_delivery: scenario.fault.upstreamDelivery,
        proxy_kind: scenario.fault.proxyKind ?? scenario.fault.holdKind,
      },
      states,
      expected_states: [...scenario.states],
      sends,
      expected_sends: { ...scenario.sends },
      appliance_writes: applianceWrites,
      expected_appliance_writes: scenario.applianceWrites,
      final_target_matches: finalMatches,
      siblings_unchanged: siblingsUnchanged,
      reconciled_on_restart: c?.reconciledOnRestart ?? null,
      expected_reconciled_on_restart: scenario.reconciledOnRestart,
      orchestration_states: orchestrationStates,
      appliance_binding_digest: c?.applianceBindingDigest ?? null,
      signed: c === undefined ? [] : [...c.signed],
      timeline: c === undefined ? [] : [...c.events],
      failures,
      interrupted,
      left,
      duration_ms: Date.now() - started,
    }),
  };
}

/** The saved context of a scenario that stopped for the owner (digests, ids, counts; no secret, no value). */
function snapshotOf(c: ScenarioContext, phase: ScenarioSnapshot['phase'], pause: OwnerPause): ScenarioSnapshot {
  const baseline = c.baseline as NonNullable<typeof c.baseline>;
  return Object.freeze({
    scenario: c.scenario.id,
    phase,
    next_step: pause.nextStep,
    pending: pause.info,
    started_at_ms: c.started,
    subject_contract_id: c.subjectContractId,
    orchestration_contract_ids: [...c.orchestrationContractIds],
    baseline: { fingerprint: baseline.fingerprint, bFingerprint: baseline.bFingerprint, siblings: baseline.siblings },
    appliance_binding_digest: c.applianceBindingDigest,
    reconciled_on_restart: c.reconciledOnRestart,
    counts: { ...c.counts },
    signed: [...c.signed],
    events: [...c.events],
  });
}

/** A resumed scenario's context: what the first process observed, then the owner's signed answer. */
function restoreContext(c: ScenarioContext, resume: ScenarioResume): void {
  const s = resume.snapshot;
  c.baseline = Object.freeze({ ...s.baseline });
  c.subjectContractId = s.subject_contract_id;
  c.orchestrationContractIds.push(...s.orchestration_contract_ids);
  c.applianceBindingDigest = s.appliance_binding_digest;
  c.reconciledOnRestart = s.reconciled_on_restart;
  c.counts.forward = s.counts.forward;
  c.counts.rollback = s.counts.rollback;
  c.counts.orchestration = s.counts.orchestration;
  c.signed.push(...s.signed, resume.ownerSigned);
  c.events.push(...s.events);
  c.record('runner', 'resumed in a new process: runtime rebuilt from the store');
  c.record(
    'owner',
    `${s.pending.request}: signed with pfsense-mcp-signer`,
    {},
    { kind: resume.ownerSigned.signedKind, digest: resume.ownerSigned.signedDigest },
  );
}

/** Recovery needs a live runtime: after a worker died the parent's was closed, so rebuild from the store. */
async function recoverWithRuntime(
  ctx: ScenarioContext,
  scenario: ScenarioDefinition,
  fixed: Parameters<typeof buildLabRuntime>[1],
): Promise<LeftState> {
  if (isClosed(ctx.runtime)) {
    const rebuilt = await buildLabRuntime(scenario, fixed);
    ctx.restart(rebuilt);
  }
  return recover(ctx);
}

function isClosed(runtime: LabRuntime): boolean {
  try {
    runtime.store.list({ limit: 1 });
    return false;
  } catch {
    return true;
  }
}
