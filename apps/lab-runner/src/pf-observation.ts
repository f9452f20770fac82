// What pf shows in the entries scenarios (docs/DESIGN.md §5, §7): the candidate's table after a send, the final
// table check, and the owner's reconciliation decision from the alias and its table. Reads only.
import type { ReconciliationObservation } from '@pfsense-mcp/executor';
import type { ScenarioContext } from './scenario-context.js';
import type { PfObservation } from './timeline.js';
/** pf prints a host without its /32 or /128; an entry and its table line are one. */
function hostOf(entry: string): string {
  return entry.replace(/\/(32|128)$/, '');
}

/** Whether the candidate's pf table holds the scenario's address (null: the table could not be read). */
async function tableHoldsBlock(ctx: ScenarioContext): Promise<boolean | null> {
  try {
    const table = await ctx.runtime.readTable(ctx.candidate);
    return table === null ? false : table.map(hostOf).includes(ctx.block.block);
  } catch {
    return null;
  }
}

/**
 * After an entries send: the executor call's duration (one PATCH with apply and its bounded verification — on an
 * appliance, its own apply timing) and pf right after it. Null for a description scenario.
 */
export async function observePf(ctx: ScenarioContext, callMs: number): Promise<PfObservation | null> {
  if (ctx.scenario.capability !== 'entries') return null;
  let pending: boolean | null;
  try {
    pending = (await ctx.runtime.readPending()).length > 0;
  } catch {
    pending = null;
  }
  return { call_ms: callMs, pending, table_holds_block: await tableHoldsBlock(ctx) };
}

/**
 * The candidate's pf table holds exactly its alias's addresses (the final check of an entries scenario: with the
 * alias back at A by fingerprint, the table is as before).
 */
export async function tableMatchesAlias(ctx: ScenarioContext): Promise<boolean> {
  const alias = await ctx.runtime.readEntries(ctx.candidate);
  const table = await ctx.runtime.readTable(ctx.candidate);
  if (table === null) return false;
  const want = [...new Set(alias.address.map(hostOf))].sort();
  const have = [...new Set(table.map(hostOf))].sort();
  return JSON.stringify(want) === JSON.stringify(have);
}

/**
 * The owner's decision for an entries contract in RECONCILIATION, from the executor's observation and the owner's
 * own look at pf: the forward is APPLIED only when the alias holds the block AND pf's table does (the effect is
 * what a block is for); an alias at its pre-state is NOT_APPLIED; config written but pf not — NOT_APPLIED (not in
 * effect). A rollback origin is decided the other way round. Null: neither (the runner refuses to sign).
 */
export async function entriesDecision(ctx: ScenarioContext, o: ReconciliationObservation): Promise<'APPLIED' | 'NOT_APPLIED' | null> {
  const alias = await ctx.runtime.readEntries(ctx.candidate);
  const aliasHolds = alias.address.map(hostOf).includes(ctx.block.block);
  const inPf = await tableHoldsBlock(ctx);
  ctx.record(
    'owner',
    `looked at pf: the alias ${aliasHolds ? 'holds' : 'does not hold'} the address, its table ${inPf === null ? 'is unreadable' : inPf ? 'holds it' : 'does not'}`,
  );
  if (inPf === null) return null;
  if (o.origin === 'EXECUTING') {
    if (o.matchesPreForwardFingerprint) return 'NOT_APPLIED';
    if (aliasHolds) return inPf ? 'APPLIED' : 'NOT_APPLIED';
    return null;
  }
  if (o.matchesPreForwardFingerprint && !aliasHolds && !inPf) return 'APPLIED';
  if (o.matchesVerifiedFingerprint === true && aliasHolds && inPf) return 'NOT_APPLIED';
  return null;
}
