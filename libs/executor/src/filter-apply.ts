import { entryKeyOf } from '@pfsense-mcp/adapters';
import type { RecoveryContract } from '@pfsense-mcp/contract-store';
import type { RestApiClient } from '@pfsense-mcp/pfsense-read';
import { appliesFilter } from '@pfsense-mcp/write-client';
import { z } from 'zod';
import type { RefusalRowWriter } from './config-history-capture.js';
import { ExecutorRefusalError } from './executor-refusal-error.js';
import type { ExecutorOperation } from './executor-refusal-error.js';

/** pfrest's pending firewall changes (Endpoints/FirewallApplyEndpoint.inc, Models/FirewallApply.inc). */
export const FIREWALL_APPLY_PATH = '/api/v2/firewall/apply';
/** pf's tables as pfrest reads them (Endpoints/DiagnosticsTablesEndpoint.inc, Models/Table.inc). */
export const DIAGNOSTICS_TABLES_PATH = '/api/v2/diagnostics/tables';

/**
 * The default wait between the verification reads after an applied send: backoff, 30 s in all at most
 * (docs/DESIGN.md §5) — pfrest applies through a dispatcher that may run after the response.
 */
export const DEFAULT_FILTER_VERIFICATION_DELAYS_MS: readonly number[] = Object.freeze([0, 250, 500, 1000, 2000, 4000, 8000, 14000]);
export const MAX_FILTER_VERIFICATION_MS = 30_000;

const applySchema = z.object({ applied: z.boolean(), pending_subsystems: z.array(z.string().max(64)).max(64) });
const tablesSchema = z.array(z.object({ name: z.string().max(256), entries: z.union([z.array(z.string().max(1024)), z.string()]) }));

/** Validates a delay schedule: non-negative integers, 1–32 of them, 30 s in all at most. */
export function checkVerificationDelays(delays: unknown): readonly number[] {
  if (!Array.isArray(delays) || delays.length === 0 || delays.length > 32) {
    throw new TypeError('MutationExecutor: "filterVerificationDelaysMs" must be 1–32 delays');
  }
  if (!delays.every((d) => Number.isInteger(d) && (d as number) >= 0)) {
    throw new TypeError('MutationExecutor: "filterVerificationDelaysMs" must be non-negative integers');
  }
  if ((delays as number[]).reduce((a, b) => a + b, 0) > MAX_FILTER_VERIFICATION_MS) {
    throw new TypeError(`MutationExecutor: "filterVerificationDelaysMs" must add up to at most ${MAX_FILTER_VERIFICATION_MS} ms`);
  }
  return Object.freeze([...(delays as number[])]);
}

/** The firewall subsystems pfrest reports as pending (empty: nothing staged). Throws on a malformed answer. */
async function pendingSubsystems(readClient: RestApiClient): Promise<readonly string[]> {
  const { data } = await readClient.read(FIREWALL_APPLY_PATH);
  const parsed = applySchema.parse(data);
  if (parsed.pending_subsystems.length > 0) return parsed.pending_subsystems;
  // `applied: false` with no subsystem named is still something pending.
  return parsed.applied ? [] : ['unknown'];
}

/**
 * Before PREPARED → EXECUTING (or VERIFIED → ROLLING_BACK) of a write that applies the filter: a reload
 * activates every pending change on the appliance, other people's staged edits included, so anything
 * pending refuses the run for now — audited FOREIGN_PENDING, nothing consumed, the contract can run once
 * nothing is pending. A write that does not apply (the description) is not checked. What remains is the
 * window between this read and the send (docs/DESIGN.md §5).
 */
export async function refuseIfPending(
  readClient: RestApiClient,
  audit: RefusalRowWriter,
  op: ExecutorOperation,
  contract: RecoveryContract,
): Promise<void> {
  if (!appliesFilter(contract.endpoint_symbol)) return;
  let gate: string | null = null;
  try {
    if ((await pendingSubsystems(readClient)).length > 0) gate = 'FOREIGN_PENDING';
  } catch {
    gate = 'APPLY_STATUS_UNAVAILABLE';
  }
  if (gate === null) return;
  try {
    audit.recordRefusal({ gate, refusalClass: 'STALE', operationId: contract.operation_id, contractId: contract.contract_id });
  } catch {
    // The refusal stands even if its audit row cannot be written.
  }
  throw new ExecutorRefusalError(gate === 'FOREIGN_PENDING' ? 'FOREIGN_PENDING' : 'APPLY_STATUS_UNAVAILABLE', op, contract.contract_id);
}

/** What the last verification read saw (value-free: counts and classes, never an address). */
export interface FilterEvidence {
  readonly pending: boolean | null;
  readonly tableFound: boolean | null;
  readonly expectedCount: number;
  readonly tableCount: number | null;
  readonly missingCount: number | null;
  readonly extraCount: number | null;
}

export type FilterVerification =
  | { readonly verified: true; readonly evidence: FilterEvidence }
  | { readonly verified: false; readonly outcomeClass: string; readonly evidence: FilterEvidence };

/** One table's entries, normalized (pfrest may split `pfctl -T show` lines with their padding). */
function tableKeys(entries: readonly string[] | string): readonly string[] {
  const lines = typeof entries === 'string' ? entries.split(/\s+/) : entries.flatMap((e) => e.split(/\s+/));
  return lines.filter((l) => l.length > 0).map((l) => entryKeyOf(l) ?? `?${l}`);
}

async function observe(readClient: RestApiClient, table: string, expected: readonly string[]): Promise<FilterVerification> {
  const evidence = (e: Partial<FilterEvidence>): FilterEvidence =>
    Object.freeze({
      pending: null,
      tableFound: null,
      tableCount: null,
      missingCount: null,
      extraCount: null,
      ...e,
      expectedCount: expected.length,
    });
  let pending: boolean;
  try {
    pending = (await pendingSubsystems(readClient)).length > 0;
  } catch {
    return { verified: false, outcomeClass: 'APPLY_STATUS_UNREADABLE', evidence: evidence({}) };
  }
  if (pending) return { verified: false, outcomeClass: 'APPLY_PENDING', evidence: evidence({ pending }) };
  let tables: z.infer<typeof tablesSchema>;
  try {
    tables = tablesSchema.parse((await readClient.read(DIAGNOSTICS_TABLES_PATH)).data);
  } catch {
    return { verified: false, outcomeClass: 'TABLE_UNREADABLE', evidence: evidence({ pending }) };
  }
  const found = tables.filter((t) => t.name === table);
  if (found.length !== 1) {
    return { verified: false, outcomeClass: 'TABLE_MISSING', evidence: evidence({ pending, tableFound: false }) };
  }
  const have = new Set(tableKeys((found[0] as { entries: string[] | string }).entries));
  const want = new Set(expected.map((e) => entryKeyOf(e) ?? `?${e}`));
  const missing = [...want].filter((k) => !have.has(k)).length;
  const extra = [...have].filter((k) => !want.has(k)).length;
  const facts = evidence({ pending, tableFound: true, tableCount: have.size, missingCount: missing, extraCount: extra });
  return missing === 0 && extra === 0
    ? { verified: true, evidence: facts }
    : { verified: false, outcomeClass: 'TABLE_MISMATCH', evidence: facts };
}

/**
 * The effect in pf (docs/DESIGN.md §5), bounded: after each delay, the apply status must show nothing pending
 * and the alias's table (by name) must hold exactly the expected entries (`a.b.c.d` and `a.b.c.d/32`, IPv6
 * spellings compared as one). The last observation decides; never a resend.
 */
export async function verifyFilterApplied(
  readClient: RestApiClient,
  table: string,
  expected: readonly string[],
  delaysMs: readonly number[],
): Promise<FilterVerification> {
  let last: FilterVerification | null = null;
  for (const delay of delaysMs) {
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    last = await observe(readClient, table, expected);
    if (last.verified) return last;
  }
  return last as FilterVerification;
}

/**
 * The alias's pf table as a reconciliation observation shows it to the operator (docs/DESIGN.md §5), compared with
 * the alias's entries read in the same observation: READ with the table's entry count and the differences (entries
 * of the alias missing from the table, entries of the table not in the alias, as normalized keys, sorted; the
 * request lists the first few of each), MISSING when pf has no table of that name, UNREADABLE when the read failed.
 * Read-only, one read; it decides nothing.
 */
export interface PfTableObservation {
  readonly status: 'READ' | 'MISSING' | 'UNREADABLE';
  readonly entryCount: number | null;
  readonly missing: readonly string[] | null;
  readonly extra: readonly string[] | null;
}

export async function observePfTable(
  readClient: RestApiClient,
  table: string,
  aliasEntries: readonly string[],
): Promise<PfTableObservation> {
  const none = (status: 'MISSING' | 'UNREADABLE'): PfTableObservation =>
    Object.freeze({ status, entryCount: null, missing: null, extra: null });
  let tables: z.infer<typeof tablesSchema>;
  try {
    tables = tablesSchema.parse((await readClient.read(DIAGNOSTICS_TABLES_PATH)).data);
  } catch {
    return none('UNREADABLE');
  }
  const found = tables.filter((t) => t.name === table);
  if (found.length !== 1) return none('MISSING');
  const have = new Set(tableKeys((found[0] as { entries: string[] | string }).entries));
  const want = new Set(aliasEntries.map((e) => entryKeyOf(e) ?? `?${e}`));
  const missing = [...want].filter((k) => !have.has(k)).sort();
  const extra = [...have].filter((k) => !want.has(k)).sort();
  return Object.freeze({ status: 'READ', entryCount: have.size, missing: Object.freeze(missing), extra: Object.freeze(extra) });
}
