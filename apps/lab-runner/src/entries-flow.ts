// The steps only the entries scenarios take (docs/DESIGN.md §5, §7): the refused unsigned rollback, the foreign
// pending change and the simulator's stale-table reload. Like every scenario step they only ask: the executors send.
import { OperationStatus } from '@pfsense-mcp/coordinator';
import { RecoveryState } from '@pfsense-mcp/state-machine';
import { LabError } from './lab-error.js';
import type { ScenarioContext } from './scenario-context.js';
import { executeSubject } from './subject-flow.js';

/** Without the rollback authorization the rollback is refused: zero sends, the contract stays VERIFIED. */
export async function unsignedRollbackRefused(ctx: ScenarioContext): Promise<void> {
  const id = ctx.subjectContractId;
  if (id === null) throw new LabError('NO_CONTRACT', 'no subject contract');
  const rt = ctx.runtime;
  if (!rt.subject.driver.rollbackAwaitsAuthorization(id))
    throw new LabError('NO_SIGNATURE_ASKED', 'the rollback did not ask for a signature');
  ctx.beforeAction('subject rollback without authorization');
  const before = rt.subjectSends();
  let refused = false;
  try {
    await rt.subject.driver.rollback(id);
  } catch {
    refused = true;
  }
  if (!refused) throw new LabError('UNSIGNED_ROLLBACK', 'a rollback without its authorization was not refused');
  if (rt.subjectSends() !== before) throw new LabError('SENT_UNSIGNED', 'an unsigned rollback sent');
  if (ctx.subjectState() !== RecoveryState.VERIFIED)
    throw new LabError('UNEXPECTED_STATE', `after the refusal the subject is ${ctx.subjectState()}`);
  ctx.record('subject', 'rollback without authorization refused');
}

/** entries-foreign-pending: the forward while something else is pending — refused, zero sends, the contract waits. */
export async function forwardWaitsForPending(ctx: ScenarioContext): Promise<void> {
  const pending = await ctx.runtime.readPending();
  if (pending.length === 0) throw new LabError('NOTHING_PENDING', 'the foreign change is not pending');
  const r = await executeSubject(ctx);
  if (r.status !== OperationStatus.REFUSED)
    throw new LabError('UNEXPECTED_STATUS', `the forward answered ${r.status} while a change was pending`);
  if (ctx.subjectState() !== RecoveryState.PREPARED) throw new LabError('UNEXPECTED_STATE', `the subject is ${ctx.subjectState()}`);
  ctx.record('runner', `forward refused while ${pending.length} subsystem(s) pending: the contract waits`);
}

/** The foreign change is applied (by the lab, which staged it): nothing pending any more. */
export async function applyForeignChange(ctx: ScenarioContext): Promise<void> {
  ctx.beforeAction('apply the foreign change');
  await ctx.runtime.applyPending();
  if ((await ctx.runtime.readPending()).length > 0) throw new LabError('STILL_PENDING', 'the apply left something pending');
  ctx.record('runner', 'foreign change applied (POST /api/v2/firewall/apply): nothing pending');
}

/** entries-table-stale: the simulator's next reloads clear the pending change but leave pf's tables as they are. */
export async function staleTables(ctx: ScenarioContext, stale: boolean): Promise<void> {
  await ctx.runtime.setApplyMode(stale ? 'stale-table' : 'sync');
  ctx.record('runner', stale ? 'simulator reloads leave the pf table stale' : 'simulator reloads rebuild the pf tables again');
}

/**
 * Against an appliance the scenarios share one candidate, and the description scenarios' writes are staged, not
 * applied (pfrest's `apply: false`): an entries scenario after them would find `aliases` pending and its forward
 * refused. Preflight found nothing pending, so what is pending now is the run's own (the description back at A):
 * it is applied first, and the timeline says so. Nothing pending → nothing done.
 */
export async function applyRunsOwnPending(ctx: ScenarioContext): Promise<void> {
  if ((await ctx.runtime.readPending()).length === 0) return;
  ctx.beforeAction("apply the run's own staged changes");
  await ctx.runtime.applyPending();
  ctx.record('runner', "applied the run's own staged description changes (pending since an earlier scenario)");
}
