import { PfrestResponseError } from './pfrest-response-error.js';
import type { QueryFieldTable } from './query-field.js';
import { matchesFilter, upstreamFilter, type ReadFilter } from './read-filter.js';
import type { ReadQuery } from './read-query.js';
import { ReadScanLimitError } from './read-scan-limit-error.js';
import type { ProjectOptions, ReadToolDefinition } from './read-tool-definition.js';
import type { RestApiClient } from './rest-api-client.js';

/** Most upstream rows a call reads to apply its filters in the server (the bound of the large-read path). */
export const MAX_SCAN_ROWS = 10_000;
/** Rows per upstream page while scanning. */
export const SCAN_PAGE_SIZE = 500;

type Row = Readonly<Record<string, unknown>>;

/** One page of a list tool, before the server's size bound (run-read-tool.ts builds the result from it). */
export interface ListPage {
  readonly items: readonly unknown[];
  /** Set when more matching rows may follow. */
  readonly nextOffset: number | null;
  readonly drift: readonly string[];
}

interface Plan {
  readonly upstream: Readonly<Record<string, string | number>>;
  readonly local: readonly ReadFilter[];
}

/** Splits the filters into pfrest query parameters and those only the server can apply; the sort always goes upstream. */
function planOf(query: ReadQuery): Plan {
  const upstream: Record<string, string | number> = {};
  const local: ReadFilter[] = [];
  for (const filter of query.filters) {
    const pair = upstreamFilter(filter);
    // Two filters with the same pfrest key (e.g. two `contains` on one field) cannot both be sent.
    if (pair === null || Object.hasOwn(upstream, pair[0])) local.push(filter);
    else upstream[pair[0]] = pair[1];
  }
  // pfrest sorts by `sort_by` with `sort_order` SORT_ASC/SORT_DESC before paging (Core/Model.inc::query).
  if (query.sortBy !== null) {
    upstream['sort_by'] = query.sortBy;
    upstream['sort_order'] = query.sortOrder === 'desc' ? 'SORT_DESC' : 'SORT_ASC';
  }
  return { upstream, local };
}

/** The row with only its ids and the named fields (the model's order). */
function pick(row: Row, idFields: readonly string[], fields: readonly string[]): Row {
  const out: Record<string, unknown> = {};
  for (const id of idFields) out[id] = row[id] ?? null;
  for (const name of fields) out[name] = row[name] ?? null;
  return Object.freeze(out);
}

function shaped(items: readonly Row[], table: QueryFieldTable, query: ReadQuery): readonly unknown[] {
  const fields = query.fields;
  return fields === null ? items : Object.freeze(items.map((row) => pick(row, table.idFields, fields)));
}

async function readProjected(
  client: RestApiClient,
  tool: ReadToolDefinition,
  query: Readonly<Record<string, string | number>>,
  pageSize: number,
  options: ProjectOptions,
  signal: AbortSignal | undefined,
): Promise<{ items: readonly Row[]; drift: readonly string[] }> {
  const { data } = await client.read(tool.path, query, signal);
  const projected = tool.project(data, options);
  const items = projected.data as readonly Row[];
  // pfrest honours limit; a longer page means it did not, and the result would misstate paging.
  if (items.length > pageSize) throw new PfrestResponseError('UNEXPECTED_SHAPE', 200, null, '$.length');
  return { items, drift: projected.drift };
}

/**
 * One page of a list tool. When pfrest can apply every filter (upstreamFilter), this is one GET with the filters,
 * the sort, `limit` and `offset`: pfrest filters, sorts, then pages. Otherwise the server reads the sorted,
 * upstream-filtered collection in pages of SCAN_PAGE_SIZE (at most MAX_SCAN_ROWS rows, else ReadScanLimitError),
 * applies the other filters to the projected rows, then `offset` and `limit` — so paging is exact either way and
 * `next_offset` continues the same filtered sequence. `fields` is applied last.
 */
export async function readListPage(
  client: RestApiClient,
  tool: ReadToolDefinition,
  table: QueryFieldTable,
  page: { readonly limit: number; readonly offset: number },
  query: ReadQuery,
  options: ProjectOptions,
  signal?: AbortSignal,
): Promise<ListPage> {
  const { limit, offset } = page;
  const plan = planOf(query);
  if (plan.local.length === 0) {
    const { items, drift } = await readProjected(client, tool, { ...plan.upstream, limit, offset }, limit, options, signal);
    return { items: shaped(items, table, query), nextOffset: items.length === limit ? offset + items.length : null, drift };
  }
  const matches: Row[] = [];
  const drift = new Set<string>();
  // One match past the page says whether more follow, so next_offset is exact here.
  const wanted = offset + limit + 1;
  for (let read = 0; ;) {
    if (read >= MAX_SCAN_ROWS) {
      // The bound is reached: a further row (one is enough to know) means the scan cannot finish.
      const probe = await readProjected(client, tool, { ...plan.upstream, limit: 1, offset: read }, 1, options, signal);
      if (probe.items.length > 0) throw new ReadScanLimitError(tool.name, MAX_SCAN_ROWS);
      break;
    }
    const chunk = await readProjected(
      client,
      tool,
      { ...plan.upstream, limit: SCAN_PAGE_SIZE, offset: read },
      SCAN_PAGE_SIZE,
      options,
      signal,
    );
    for (const name of chunk.drift) drift.add(name);
    for (const row of chunk.items) if (plan.local.every((f) => matchesFilter(f, row[f.field.name]))) matches.push(row);
    read += chunk.items.length;
    if (matches.length >= wanted || chunk.items.length < SCAN_PAGE_SIZE) break;
  }
  const items = matches.slice(offset, offset + limit);
  return {
    items: shaped(Object.freeze(items), table, query),
    nextOffset: matches.length > offset + limit ? offset + limit : null,
    drift: Object.freeze([...drift].sort()),
  };
}
