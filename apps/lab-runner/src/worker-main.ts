// A G scenario's worker process: it builds the scenario's runtime from fixed configuration, runs the plan up
// to its kill point (where the subject proxy may hold a send), tells the parent, and waits to be SIGKILLed.
// Its job arrives over the IPC channel only; it prints nothing.
import { LabError } from './lab-error.js';
import { labKeysFromWire } from './lab-keys.js';
import { LabOwner } from './lab-owner.js';
import { buildLabRuntime } from './runtime-factory.js';
import { ScenarioContext } from './scenario-context.js';
import { planOf } from './scenario-plans.js';
import { scenarioOf } from './scenario-registry.js';
import { workerJobSchema } from './worker-protocol.js';
import type { WorkerMessage } from './worker-protocol.js';

function send(message: WorkerMessage): Promise<void> {
  return new Promise((resolve) => {
    if (typeof process.send !== 'function') return resolve();
    process.send(message, undefined, undefined, () => resolve());
  });
}

const NEVER_INTERRUPTED = Object.freeze({ interrupted: false, whenInterrupted: new Promise<void>(() => {}) });

export async function runWorker(): Promise<void> {
  // The parent is the lifeline: without it nothing here may go on.
  process.on('disconnect', () => process.exit(1));
  const keepAlive = setInterval(() => {}, 1 << 30);
  const job = await new Promise<unknown>((resolve) => process.once('message', resolve));
  let ctx: ScenarioContext | undefined;
  try {
    const parsed = workerJobSchema.parse(job);
    const scenario = scenarioOf(parsed.scenarioId);
    const plan = planOf(scenario.id);
    if (plan.kind !== 'restart') throw new LabError('NOT_A_RESTART_SCENARIO', 'this scenario runs in-process');
    const keys = labKeysFromWire(parsed.keys);
    const runtime = await buildLabRuntime(scenario, { simulator: parsed.simulator, scenarioDir: parsed.scenarioDir, keys });
    const owner = new LabOwner(keys);
    const c = new ScenarioContext(scenario, runtime, owner, NEVER_INTERRUPTED, (_id, event) => void send({ type: 'event', event }), null);
    ctx = c;
    // The parent took the baseline; the fingerprint with B needs it again here (a GET, counted as a read).
    const target = await runtime.subject.coordinator.readAlias(c.subjectInput.aliasName);
    c.initial = { target, fingerprint: '', siblings: '' };
    let signedSent = 0;
    const flushSigned = async () => {
      for (; signedSent < c.signed.length; signedSent += 1) await send({ type: 'signed', signed: { ...(c.signed[signedSent] as NonNullable<(typeof c.signed)[number]>) } });
    };
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
    await flushSigned();
    throw new LabError('NO_KILL_POINT', 'the plan ended without reaching its kill point');
  } catch (e) {
    const code = e instanceof LabError ? e.code : e instanceof Error ? e.name : 'ERROR';
    const message = e instanceof LabError ? e.message : 'the worker failed';
    await send({ type: 'failed', code, message: message.slice(0, 300) });
    clearInterval(keepAlive);
    ctx?.runtime.close();
    process.exit(1);
  }
}
