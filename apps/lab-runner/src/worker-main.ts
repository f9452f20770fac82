// A G scenario's worker process. `before-kill`: build the scenario's runtime from fixed configuration, run
// the plan up to its kill point (where the subject proxy may hold a send), tell the parent and wait to be
// SIGKILLed. `after-restart`: a new process rebuilds the runtime from the store alone — constructing its
// executor reconciles what the dead one left — and runs the rest of the plan. The job arrives over the IPC
// channel only; the worker prints nothing.
import { LabError, LabInterruptedError } from './lab-error.js';
import { ALIAS_PATH } from './lab-fixture.js';
import { labKeysFromWire, labPinsFromWire } from './lab-keys.js';
import { LabOwner } from './lab-owner.js';
import { buildLabRuntime } from './runtime-factory.js';
import { ScenarioContext } from './scenario-context.js';
import { OwnerPause } from './owner-pause.js';
import { planOf, runSteps } from './scenario-plans.js';
import { scenarioOf } from './scenario-registry.js';
import { workerInterruptSchema, workerJobSchema } from './worker-protocol.js';
import type { WorkerMessage } from './worker-protocol.js';

function send(message: WorkerMessage): Promise<void> {
  return new Promise((resolve) => {
    if (typeof process.send !== 'function') return resolve();
    process.send(message, undefined, undefined, () => resolve());
  });
}

/**
 * How a failure is told to the parent: a LabError by its own code and message; any other error by its class and
 * stable code only (never its message: it may carry a value).
 */
function failureOf(e: unknown): { code: string; message: string } {
  const code = e instanceof LabError ? e.code : e instanceof Error ? e.name : 'ERROR';
  const errCode = e instanceof Error ? (e as { code?: unknown }).code : undefined;
  const named =
    e instanceof Error
      ? `the worker failed (${e.name}${typeof errCode === 'string' && /^[A-Z0-9_]{1,64}$/.test(errCode) ? `: ${errCode}` : ''})`
      : 'the worker failed';
  const message = e instanceof LabInterruptedError ? 'INTERRUPTED' : e instanceof LabError ? e.message : named;
  return { code, message: message.slice(0, 300) };
}

export async function runWorker(): Promise<void> {
  // The parent is the lifeline: without it nothing here may go on.
  process.on('disconnect', () => process.exit(1));
  // A failure outside the plan's own await chain (an unhandled rejection, an error event nobody listens to) is
  // still told to the parent, by class and code, before the process ends — never a silent exit.
  const dieTelling = (e: unknown) => {
    const f = failureOf(e);
    void send({ type: 'failed', code: f.code, message: `uncaught: ${f.message}`.slice(0, 300) }).then(() => process.exit(1));
  };
  process.on('uncaughtException', dieTelling);
  process.on('unhandledRejection', dieTelling);
  const keepAlive = setInterval(() => {}, 1 << 30);
  const job = await new Promise<unknown>((resolve) => process.once('message', resolve));
  let trigger = () => {};
  const interruption = {
    interrupted: false,
    whenInterrupted: new Promise<void>((resolve) => {
      trigger = resolve;
    }),
  };
  process.on('message', (m) => {
    if (workerInterruptSchema.safeParse(m).success) {
      interruption.interrupted = true;
      trigger();
    }
  });
  let ctx: ScenarioContext | undefined;
  let signedSent = 0;
  const flushSigned = async () => {
    for (; ctx !== undefined && signedSent < ctx.signed.length; signedSent += 1) {
      await send({ type: 'signed', signed: { ...(ctx.signed[signedSent] as NonNullable<(typeof ctx.signed)[number]>) } });
    }
  };
  try {
    const parsed = workerJobSchema.parse(job);
    const scenario = scenarioOf(parsed.scenarioId);
    const plan = planOf(scenario.id);
    if (plan.kind !== 'restart') throw new LabError('NOT_A_RESTART_SCENARIO', 'this scenario runs in-process');
    const keys = labKeysFromWire(parsed.keys);
    const pins = labPinsFromWire(parsed.pins);
    const runtime = await buildLabRuntime(scenario, { simulator: parsed.target, scenarioDir: parsed.scenarioDir, keys, pins });
    // Against an appliance the worker re-checks the same gate deadline before every action, on the same candidate.
    const c = new ScenarioContext(
      scenario,
      runtime,
      new LabOwner(keys),
      interruption,
      (_id, event) => void send({ type: 'event', event }),
      null,
      parsed.appliance ?? undefined,
    );
    ctx = c;
    c.baseline = Object.freeze({ ...parsed.baseline, siblings: '' });
    c.subjectContractId = parsed.subjectContractId;
    c.orchestrationContractIds.push(...parsed.orchestrationContractIds);
    if (parsed.phase === 'after-restart') {
      await send({ type: 'restarted', reconciled: runtime.reconciledAtStart.length });
      c.record('worker', `new process: runtime rebuilt from the store (${runtime.reconciledAtStart.length} reconciled)`);
      // The simulator's own count at the restart: with the scenario's total it shows that nothing was resent
      // (an appliance has no such counters; there the proxies' counts are the evidence).
      if (parsed.target.simulated) {
        c.record(
          'worker',
          `simulator counted ${(await runtime.applianceCounters())[`PATCH ${ALIAS_PATH}`] ?? 0} alias write(s) before the restart`,
        );
      }
      await c.checkpoint('restart');
      try {
        await runSteps(c, plan.afterRestart);
      } catch (e) {
        if (!(e instanceof OwnerPause)) throw e;
        // Against an appliance: the owner signs the pending request; the run continues in `--resume`.
        await flushSigned();
        await send({
          type: 'paused',
          pendingFile: e.info.pendingFile,
          request: e.info.request,
          observed: e.info.observed,
          nextStep: e.nextStep,
        });
        await send({ type: 'done', orchestrationContractIds: [...c.orchestrationContractIds] });
        runtime.close();
        clearInterval(keepAlive);
        process.exit(0);
      }
      await flushSigned();
      await send({ type: 'done', orchestrationContractIds: [...c.orchestrationContractIds] });
      runtime.close();
      clearInterval(keepAlive);
      process.exit(0);
    }
    let killing = false;
    const killPoint = async (label: string): Promise<never> => {
      if (!killing) {
        killing = true;
        const counted = c.counts.forward + c.counts.rollback;
        const phase = c.subjectState() === 'ROLLING_BACK' ? 'rollback' : 'forward';
        c.record('worker', `kill point: ${label}`, { [phase]: runtime.subjectSends() - counted });
        await flushSigned();
        await send({ type: 'kill-point', label, subjectContractId: c.subjectContractId });
      }
      return new Promise<never>(() => {});
    };
    await plan.beforeKill(c, killPoint);
    throw new LabError('NO_KILL_POINT', 'the plan ended without reaching its kill point');
  } catch (e) {
    await flushSigned();
    await send({ type: 'failed', ...failureOf(e) });
    ctx?.runtime.close();
    clearInterval(keepAlive);
    process.exit(1);
  }
}
