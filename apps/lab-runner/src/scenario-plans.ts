// One closed plan per scenario id (dispatch only: the registry entry says what is expected, the plan which
// sealed calls make it happen). A plan is a list of named steps, so a run that stopped for the owner
// (OwnerPause) can continue with the next step in a later process (`--resume`). G plans are split at the kill
// point: `beforeKill` runs in a worker process that is SIGKILLed there, `afterRestart` in a runtime rebuilt
// from the store alone.
import { LabError } from './lab-error.js';
import { applyForeignChange, forwardWaitsForPending, staleTables, unsignedRollbackRefused } from './entries-flow.js';
import { addOther, divertToC, restoreA, restoreEntries } from './orchestrator.js';
import { OwnerPause } from './owner-pause.js';
import type { ScenarioContext } from './scenario-context.js';
import type { ScenarioId } from './scenario-definition.js';
import {
  executeSubject,
  prepareConfirmed,
  requestReconciliation,
  requestRelease,
  resolveReconciliation,
  resolveRelease,
  rollbackSubject,
} from './subject-flow.js';

/** What a worker calls at its kill point: it tells the parent and never returns. */
export interface KillPoint {
  (label: string): Promise<never>;
}

export interface PlanStep {
  readonly name: string;
  run(ctx: ScenarioContext): Promise<void>;
}

export type ScenarioPlan =
  | { readonly kind: 'in-process'; readonly steps: readonly PlanStep[] }
  | {
      readonly kind: 'restart';
      beforeKill(ctx: ScenarioContext, killPoint: KillPoint): Promise<void>;
      readonly afterRestart: readonly PlanStep[];
    };

const step = (name: string, run: (ctx: ScenarioContext) => Promise<void>): PlanStep => Object.freeze({ name, run });

const PREPARE = step('prepare', async (ctx) => {
  await prepareConfirmed(ctx, ctx.runtime.subject, ctx.subjectCapability, ctx.subjectInput, 'subject');
  await ctx.checkpoint('prepare');
});
const FORWARD = step('forward', async (ctx) => {
  await executeSubject(ctx);
  await ctx.checkpoint('forward');
});
const ROLLBACK = step('rollback', async (ctx) => {
  await rollbackSubject(ctx);
  await ctx.checkpoint('rollback');
});
const DIVERT = step('divert', async (ctx) => {
  await divertToC(ctx);
  await ctx.checkpoint('divert');
});
const RESTORE = step('restore', (ctx) => restoreA(ctx));
// The entries scenarios' own steps: someone else's entry edit and its undo, a foreign change left pending (two
// description changes A → C → A, which pfrest stages without applying) and its apply, the simulator's stale reload.
const EDIT_ENTRIES = step('edit-entries', async (ctx) => {
  await addOther(ctx);
  await ctx.checkpoint('edit-entries');
});
const RESTORE_ENTRIES = step('restore-entries', (ctx) => restoreEntries(ctx));
const FOREIGN_PENDING = step('foreign-pending', async (ctx) => {
  await divertToC(ctx);
  await restoreA(ctx);
  await ctx.checkpoint('foreign-pending');
});
const FORWARD_WAITS = step('forward-waits', async (ctx) => {
  await forwardWaitsForPending(ctx);
  await ctx.checkpoint('forward-waits');
});
const APPLY_FOREIGN = step('apply-foreign', (ctx) => applyForeignChange(ctx));
const STALE_TABLES = step('stale-tables', (ctx) => staleTables(ctx, true));
const FRESH_TABLES = step('fresh-tables', (ctx) => staleTables(ctx, false));
const UNSIGNED_ROLLBACK = step('unsigned-rollback', async (ctx) => {
  await unsignedRollbackRefused(ctx);
  await ctx.checkpoint('unsigned-rollback');
});
/** Against an appliance the run stops after this step until the owner signed (OwnerPause). */
const RECONCILE_REQUEST = step('reconcile-request', (ctx) => requestReconciliation(ctx));
const RECONCILE = step('reconcile', async (ctx) => {
  await resolveReconciliation(ctx);
  await ctx.checkpoint('reconcile');
});
const RELEASE_REQUEST = step('release-request', (ctx) => requestRelease(ctx));
const RELEASE = step('release', async (ctx) => {
  await resolveRelease(ctx);
  await ctx.checkpoint('release');
});

/** Runs a send the subject proxy holds (a fault that never forwards); the process dies while it is held. */
async function heldSend(ctx: ScenarioContext, killPoint: KillPoint, label: string, send: () => Promise<void>): Promise<void> {
  ctx.runtime.onSubjectCall(() => {
    void killPoint(label);
  });
  await send();
  throw new LabError('HOLD_FAILED', `${label}: the send was not held`);
}

const PLANS: Readonly<Record<ScenarioId, ScenarioPlan>> = Object.freeze({
  ordinary: { kind: 'in-process', steps: [PREPARE, FORWARD, ROLLBACK] },
  'd1-stale-before-forward': { kind: 'in-process', steps: [PREPARE, DIVERT, FORWARD, RESTORE] },
  'd3-conflict-after-verified': { kind: 'in-process', steps: [PREPARE, FORWARD, DIVERT, ROLLBACK, RELEASE_REQUEST, RELEASE, RESTORE] },
  'e-forward-response-lost': { kind: 'in-process', steps: [PREPARE, FORWARD, RECONCILE_REQUEST, RECONCILE, ROLLBACK] },
  'e-rollback-response-lost': { kind: 'in-process', steps: [PREPARE, FORWARD, ROLLBACK, RECONCILE_REQUEST, RECONCILE] },
  'g-restart-executing': {
    kind: 'restart',
    async beforeKill(ctx, killPoint) {
      await PREPARE.run(ctx);
      await heldSend(ctx, killPoint, 'forward send held', async () => void (await executeSubject(ctx)));
    },
    afterRestart: [RECONCILE_REQUEST, RECONCILE],
  },
  'g-restart-after-verified': {
    kind: 'restart',
    async beforeKill(ctx, killPoint) {
      await PREPARE.run(ctx);
      await FORWARD.run(ctx);
      await killPoint('after VERIFIED');
    },
    afterRestart: [ROLLBACK],
  },
  'g-restart-rolling-back': {
    kind: 'restart',
    async beforeKill(ctx, killPoint) {
      await PREPARE.run(ctx);
      await FORWARD.run(ctx);
      await heldSend(ctx, killPoint, 'rollback send held', () => rollbackSubject(ctx));
    },
    afterRestart: [RECONCILE_REQUEST, RECONCILE, RELEASE_REQUEST, RELEASE, RESTORE],
  },
  'entries-ordinary': { kind: 'in-process', steps: [PREPARE, FORWARD, ROLLBACK] },
  'entries-stale-before-forward': { kind: 'in-process', steps: [PREPARE, EDIT_ENTRIES, FORWARD, RESTORE_ENTRIES] },
  'entries-foreign-pending': { kind: 'in-process', steps: [PREPARE, FOREIGN_PENDING, FORWARD_WAITS, APPLY_FOREIGN, FORWARD, ROLLBACK] },
  'entries-forward-response-lost': { kind: 'in-process', steps: [PREPARE, FORWARD, RECONCILE_REQUEST, RECONCILE, ROLLBACK] },
  'entries-table-stale': {
    kind: 'in-process',
    steps: [PREPARE, STALE_TABLES, FORWARD, RECONCILE_REQUEST, RECONCILE, FRESH_TABLES, RESTORE_ENTRIES],
  },
  'entries-restart-executing': {
    kind: 'restart',
    async beforeKill(ctx, killPoint) {
      await PREPARE.run(ctx);
      await heldSend(ctx, killPoint, 'forward send held', async () => void (await executeSubject(ctx)));
    },
    afterRestart: [RECONCILE_REQUEST, RECONCILE],
  },
  'entries-rollback-after-verified': { kind: 'in-process', steps: [PREPARE, FORWARD, UNSIGNED_ROLLBACK, ROLLBACK] },
});

export function planOf(id: ScenarioId): ScenarioPlan {
  const plan = PLANS[id];
  if (plan === undefined) throw new TypeError('planOf: unknown scenario');
  return plan;
}

/**
 * Runs `steps` from index `from`. A step that stops for the owner is rethrown as an OwnerPause naming the
 * index of the next step (where `--resume` continues).
 */
export async function runSteps(ctx: ScenarioContext, steps: readonly PlanStep[], from = 0): Promise<void> {
  if (!Number.isSafeInteger(from) || from < 0 || from > steps.length) throw new TypeError('runSteps: "from" must be a step index');
  for (let i = from; i < steps.length; i += 1) {
    try {
      await (steps[i] as PlanStep).run(ctx);
    } catch (e) {
      if (e instanceof OwnerPause) throw new OwnerPause(e.info, i + 1);
      throw e;
    }
  }
}
