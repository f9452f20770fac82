// The lab's closed description orchestrator (docs/DESIGN.md §7): the only mutations besides the subject's, each one a fresh,
// owner-confirmed Recovery Contract executed by the orchestration executor over its clean proxy. Its
// methods are the registry's D actions; the descriptions are the scenario's constants, never parameters.
import { OperationStatus } from '@pfsense-mcp/coordinator';
import { Capability } from '@pfsense-mcp/policy';
import { LabError } from './lab-error.js';
import type { ScenarioContext } from './scenario-context.js';
import { prepareConfirmed } from './subject-flow.js';

async function change(ctx: ScenarioContext, to: 'C' | 'A'): Promise<void> {
  ctx.beforeAction(`orchestration to ${to}`);
  const side = ctx.runtime.orchestration;
  const input = ctx.orchestrationInput(to);
  await prepareConfirmed(ctx, side, input, 'orchestration');
  ctx.beforeAction(`orchestration to ${to} (executor call)`);
  const revisions = await ctx.revisionsNow();
  const before = ctx.runtime.orchestrationSends();
  const r = await side.driver.requestChange(Capability.ALIAS_WRITE, input);
  ctx.record('orchestration', `candidate changed to ${to}`, { orchestration: ctx.runtime.orchestrationSends() - before }, null, {
    before: revisions,
    after: await ctx.revisionsNow(),
  });
  if (r.status !== OperationStatus.VERIFIED)
    throw new LabError('ORCHESTRATION_FAILED', `the orchestration change to ${to} ended ${r.status}`);
}

/** Someone else's change: the candidate becomes the scenario's C. */
export function divertToC(ctx: ScenarioContext): Promise<void> {
  return change(ctx, 'C');
}

/** Back to the original A (its own contract; the final read proves it). */
export function restoreA(ctx: ScenarioContext): Promise<void> {
  return change(ctx, 'A');
}
