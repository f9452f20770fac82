// One closed plan per scenario id (dispatch only: the registry entry says what is expected, the plan which
// sealed calls make it happen). G plans are split at the kill point: `beforeKill` runs in a worker process
// that is SIGKILLed there, `afterRestart` in a runtime rebuilt from the store alone.
import { LabError } from './lab-error.js';
import { divertToC, restoreA } from './orchestrator.js';
import type { ScenarioContext } from './scenario-context.js';
import type { ScenarioId } from './scenario-definition.js';
import { executeSubject, prepareConfirmed, reconcileSubject, releaseSubject, rollbackSubject } from './subject-flow.js';

/** What a worker calls at its kill point: it tells the parent and never returns. */
export interface KillPoint {
  (label: string): Promise<never>;
}

export type ScenarioPlan =
  | { readonly kind: 'in-process'; run(ctx: ScenarioContext): Promise<void> }
  | { readonly kind: 'restart'; beforeKill(ctx: ScenarioContext, killPoint: KillPoint): Promise<void>; afterRestart(ctx: ScenarioContext): Promise<void> };

async function prepare(ctx: ScenarioContext): Promise<void> {
  await prepareConfirmed(ctx, ctx.runtime.subject, ctx.subjectInput, 'subject');
  await ctx.checkpoint('prepare');
}

async function forward(ctx: ScenarioContext): Promise<void> {
  await executeSubject(ctx);
  await ctx.checkpoint('forward');
}

async function rollback(ctx: ScenarioContext): Promise<void> {
  await rollbackSubject(ctx);
  await ctx.checkpoint('rollback');
}

/** Runs a send the subject proxy holds (a fault that never forwards); the process dies while it is held. */
async function heldSend(ctx: ScenarioContext, killPoint: KillPoint, label: string, send: () => Promise<void>): Promise<void> {
  ctx.runtime.onSubjectCall(() => {
    void killPoint(label);
  });
  await send();
  throw new LabError('HOLD_FAILED', `${label}: the send was not held`);
}

const PLANS: Readonly<Record<ScenarioId, ScenarioPlan>> = Object.freeze({
  ordinary: {
    kind: 'in-process',
    async run(ctx) {
      await prepare(ctx);
      await forward(ctx);
      await rollback(ctx);
    },
  },
  'd1-stale-before-forward': {
    kind: 'in-process',
    async run(ctx) {
      await prepare(ctx);
      await divertToC(ctx);
      await ctx.checkpoint('divert');
      await forward(ctx);
      await restoreA(ctx);
    },
  },
  'd3-conflict-after-verified': {
    kind: 'in-process',
    async run(ctx) {
      await prepare(ctx);
      await forward(ctx);
      await divertToC(ctx);
      await ctx.checkpoint('divert');
      await rollback(ctx);
      await releaseSubject(ctx);
      await ctx.checkpoint('release');
      await restoreA(ctx);
    },
  },
  'e-forward-response-lost': {
    kind: 'in-process',
    async run(ctx) {
      await prepare(ctx);
      await forward(ctx);
      await reconcileSubject(ctx);
      await ctx.checkpoint('reconcile');
      await rollback(ctx);
    },
  },
  'e-rollback-response-lost': {
    kind: 'in-process',
    async run(ctx) {
      await prepare(ctx);
      await forward(ctx);
      await rollback(ctx);
      await reconcileSubject(ctx);
    },
  },
  'g-restart-executing': {
    kind: 'restart',
    async beforeKill(ctx, killPoint) {
      await prepare(ctx);
      await heldSend(ctx, killPoint, 'forward send held', () => executeSubject(ctx));
    },
    async afterRestart(ctx) {
      await reconcileSubject(ctx);
    },
  },
  'g-restart-after-verified': {
    kind: 'restart',
    async beforeKill(ctx, killPoint) {
      await prepare(ctx);
      await forward(ctx);
      await killPoint('after VERIFIED');
    },
    async afterRestart(ctx) {
      await rollback(ctx);
    },
  },
  'g-restart-rolling-back': {
    kind: 'restart',
    async beforeKill(ctx, killPoint) {
      await prepare(ctx);
      await forward(ctx);
      await heldSend(ctx, killPoint, 'rollback send held', () => rollbackSubject(ctx));
    },
    async afterRestart(ctx) {
      await reconcileSubject(ctx);
      await ctx.checkpoint('reconcile');
      await releaseSubject(ctx);
      await ctx.checkpoint('release');
      await restoreA(ctx);
    },
  },
});

export function planOf(id: ScenarioId): ScenarioPlan {
  const plan = PLANS[id];
  if (plan === undefined) throw new TypeError('planOf: unknown scenario');
  return plan;
}
