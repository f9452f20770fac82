import {
  DEFAULT_LIMIT,
  runReadTool,
  type PluralReadToolResult,
  type ReadToolDefinition,
  type RestApiClient,
} from '@pfsense-mcp/pfsense-read';
import { boundResultSize, type BoundedResult } from './bound-result-size.js';
import { markFleetResultConforming } from './fleet-output-schema.js';
import { mapBounded } from './map-bounded.js';
import { ToolCallError, ToolErrorCode } from './tool-error-code.js';

/** Appliances read at once by one fleet call; each appliance's own in-flight limit still applies (docs/DESIGN.md §8). */
export const FLEET_CONCURRENCY = 8;

export type ClassifyError = (error: unknown) => ToolCallError;

type Outcome = { readonly name: string; readonly result: PluralReadToolResult } | { readonly name: string; readonly error: ToolCallError };

/** One fleet result before the size bound: every row tagged with its appliance, in inventory order. */
interface FleetResult extends Record<string, unknown> {
  readonly data: readonly Record<string, unknown>[];
  readonly count: number;
  readonly limit: number;
  readonly offset: number;
  readonly next_offset: null;
  readonly truncated: boolean;
  readonly drift?: readonly string[];
  readonly errors: readonly { readonly appliance: string; readonly code: string }[];
  readonly next_offsets: Readonly<Record<string, number>>;
}

/**
 * A list tool read on several appliances at once (`appliance: "*"` or a list of names), at most FLEET_CONCURRENCY
 * at a time, each through its own client (its own pool, in-flight limit, timeouts and response cap). The pages are
 * merged in inventory order, each row tagged `appliance`; an appliance whose read failed is named in `errors` with
 * its stable code and the others still answer. `next_offset` is null: `next_offsets` says, per appliance, where its
 * rows continue (a full page, or rows cut by the size bound). Input errors are the same for every appliance (they
 * are found before any GET), so they fail the call as a one-appliance read would.
 */
export async function runFleetRead(
  tool: ReadToolDefinition,
  input: Record<string, unknown>,
  clients: ReadonlyMap<string, RestApiClient>,
  names: readonly string[],
  signal: AbortSignal,
  classify: ClassifyError,
  maxBytes?: number,
): Promise<BoundedResult> {
  const outcomes = await mapBounded(names, FLEET_CONCURRENCY, async (name): Promise<Outcome> => {
    const client = clients.get(name);
    if (client === undefined) return { name, error: new ToolCallError(ToolErrorCode.INTERNAL_ERROR) };
    try {
      return { name, result: (await runReadTool(client, tool, input, signal)) as PluralReadToolResult };
    } catch (error) {
      return { name, error: classify(error) };
    }
  });
  const refused = outcomes.find((o) => 'error' in o && o.error.code === ToolErrorCode.INVALID_INPUT);
  if (refused !== undefined && 'error' in refused) throw refused.error;
  if (signal.aborted) throw new ToolCallError(ToolErrorCode.CANCELLED);

  const rows: Record<string, unknown>[] = [];
  /** rowsOf[i]: the appliance of rows[i]. */
  const rowsOf: string[] = [];
  const drift = new Set<string>();
  const errors: { appliance: string; code: string }[] = [];
  const pageNext = new Map<string, number>();
  let limit: number | null = null;
  let offset = 0;
  for (const outcome of outcomes) {
    if ('error' in outcome) {
      errors.push({ appliance: outcome.name, code: outcome.error.code });
      continue;
    }
    const { result } = outcome;
    limit = result.limit;
    offset = result.offset;
    for (const row of result.data) {
      rows.push({ appliance: outcome.name, ...(row as Record<string, unknown>) });
      rowsOf.push(outcome.name);
    }
    for (const name of result.drift ?? []) drift.add(name);
    if (result.next_offset !== null) pageNext.set(outcome.name, result.next_offset);
  }
  const shape = (data: readonly Record<string, unknown>[], cutAt: number | null): FleetResult => {
    const nextOffsets: Record<string, number> = {};
    const kept = new Map<string, number>();
    for (let i = 0; i < data.length; i += 1) kept.set(rowsOf[i] as string, (kept.get(rowsOf[i] as string) ?? 0) + 1);
    for (const outcome of outcomes) {
      if ('error' in outcome) continue;
      const total = outcome.result.data.length;
      const mine = kept.get(outcome.name) ?? 0;
      // Rows the size bound dropped continue where this appliance's kept rows end; else where its page said.
      if (cutAt !== null && mine < total) nextOffsets[outcome.name] = outcome.result.offset + mine;
      else if (pageNext.has(outcome.name)) nextOffsets[outcome.name] = pageNext.get(outcome.name) as number;
    }
    return {
      data,
      count: data.length,
      // Every appliance failed: the page asked for, as the input said it (the tool's defaults otherwise).
      limit: limit ?? (typeof input['limit'] === 'number' ? input['limit'] : DEFAULT_LIMIT),
      offset: limit === null && typeof input['offset'] === 'number' ? input['offset'] : offset,
      next_offset: null,
      truncated: cutAt !== null,
      ...(drift.size === 0 ? {} : { drift: [...drift].sort() }),
      errors,
      next_offsets: nextOffsets,
    };
  };
  // Pages the catalogue's plain-code check accepts (a projected page: one O(1) look) make a conforming fleet result.
  const conforming = outcomes.every((o) => 'error' in o || tool.conformsToOutputSchema(o.result));
  const build = (data: readonly Record<string, unknown>[], cutAt: number | null): FleetResult => {
    const made = shape(data, cutAt);
    if (conforming) markFleetResultConforming(made);
    return made;
  };
  const full = build(rows, null);
  return boundResultSize(full, full.data, (keep) => build(rows.slice(0, keep), keep), maxBytes);
}
