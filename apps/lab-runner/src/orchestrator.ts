// The lab's closed orchestrator (docs/DESIGN.md §7): the only mutations besides the subject's, each one a fresh,
// owner-confirmed Recovery Contract executed by the orchestration executor over its clean proxy. Its
// methods are the registry's D actions; the descriptions and addresses are the scenario's constants, never parameters.
import { OperationStatus } from '@pfsense-mcp/coordinator';
import { Capability } from '@pfsense-mcp/policy';
import { LabError } from './lab-error.js';
import type { ScenarioContext } from './scenario-context.js';
import { prepareConfirmed } from './subject-flow.js';

async function change(ctx: ScenarioContext, capability: string, input: object, label: string): Promise<void> {
  ctx.beforeAction(`orchestration ${label}`);
  const side = ctx.runtime.orchestration;
  await prepareConfirmed(ctx, side, capability, input, 'orchestration');
  ctx.beforeAction(`orchestration ${label} (executor call)`);
  const revisions = await ctx.revisionsNow();
  const before = ctx.runtime.orchestrationSends();
  const r = await side.driver.requestChange(capability, input);
  ctx.record('orchestration', label, { orchestration: ctx.runtime.orchestrationSends() - before }, null, {
    before: revisions,
    after: await ctx.revisionsNow(),
  });
  if (r.status !== OperationStatus.VERIFIED) throw new LabError('ORCHESTRATION_FAILED', `the orchestration (${label}) ended ${r.status}`);
}

/** Someone else's change: the candidate's description becomes the scenario's C (pfrest stages it: pending). */
export function divertToC(ctx: ScenarioContext): Promise<void> {
  return change(ctx, Capability.ALIAS_WRITE, ctx.orchestrationInput('C'), 'candidate changed to C');
}

/** Back to the original description A (its own contract; the final read proves it). */
export function restoreA(ctx: ScenarioContext): Promise<void> {
  return change(ctx, Capability.ALIAS_WRITE, ctx.orchestrationInput('A'), 'candidate changed to A');
}

/** Someone else edits the entries: the scenario's other address is added to the candidate (applied). */
export function addOther(ctx: ScenarioContext): Promise<void> {
  return change(ctx, Capability.ALIAS_ENTRIES_WRITE, ctx.entriesInput({ add: [ctx.block.other] }), 'candidate changed to C');
}

/**
 * The candidate's entries back to A: the lab's own addresses that are in it now are removed (applied), by one
 * contract of their own. Nothing to remove → nothing done.
 */
export async function restoreEntries(ctx: ScenarioContext): Promise<void> {
  const now = (await ctx.runtime.readEntries(ctx.candidate)).address.map((e) => e.replace(/\/(32|128)$/, ''));
  const remove = [ctx.block.block, ctx.block.other].filter((a) => now.includes(a));
  if (remove.length === 0) return;
  await change(ctx, Capability.ALIAS_ENTRIES_WRITE, ctx.entriesInput({ remove }), 'candidate changed to A');
}
