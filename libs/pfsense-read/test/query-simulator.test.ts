// Filters through the real read path against the simulator, which filters with pfrest's PHP semantics
// (tools/pfsense-sim/src/query-filters.ts): for every list tool, every filterable field and every operator, with
// values from the demo appliance and values PHP would retype, the rows a filtered call returns are exactly the rows
// the documented meaning selects from the unfiltered collection — whether the filter went to pfrest or the server
// applied it. Also: the order of a sorted scan is pfrest's order, and paging a filtered list is exact.
import { createHttpTransport, type HttpTransport, type Transport } from '@pfsense-mcp/transports';
import { startSimulator, type RunningSimulator } from '@pfsense-mcp/pfsense-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  READ_CATALOGUE,
  RestApiClient,
  runReadTool,
  type PluralReadToolResult,
  type QueryField,
  type ReadToolDefinition,
} from '../src/index.js';

type Row = Record<string, unknown>;
type Scalar = string | number | boolean;

let sim: RunningSimulator;
let http: HttpTransport;
let client: RestApiClient;
const sentQueries: Record<string, unknown>[] = [];

beforeAll(async () => {
  sim = await startSimulator({});
  http = createHttpTransport({ baseUrl: sim.url, authHeader: { name: 'X-API-Key', value: sim.apiKey }, allowHttpLoopback: true });
  // Records what went upstream, so the test proves both paths (pfrest's filter and the server's) were exercised.
  const recording: Transport = {
    request: (method, path, options) => {
      if (options?.query !== undefined) sentQueries.push({ ...options.query });
      return http.request(method, path, options);
    },
  };
  client = new RestApiClient(recording);
});
afterAll(async () => {
  http.close();
  await sim.close();
});

// The documented meaning of each operator (libs/pfsense-read/README.md, Inputs), written out independently.
const text = (v: Scalar): string => (typeof v === 'string' ? v : String(v));
const isScalar = (v: unknown): v is Scalar => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
function same(kind: string, v: unknown, w: Scalar): boolean {
  if (!isScalar(v)) return false;
  return kind === 'scalar' || kind === 'id' ? text(v) === text(w) : v === w;
}
function oracle(field: QueryField, op: string, value: unknown, v: unknown): boolean {
  const list = field.kind.endsWith('[]');
  const kind = list ? field.kind.slice(0, -2) : field.kind;
  switch (op) {
    case 'eq':
      return same(kind, v, value as Scalar);
    case 'ne':
      return !same(kind, v, value as Scalar);
    case 'in':
      return (value as Scalar[]).some((w) => same(kind, v, w));
    case 'contains':
      return list ? Array.isArray(v) && v.some((e) => same(kind, e, value as Scalar)) : isScalar(v) && text(v).includes(value as string);
    case 'startswith':
      return isScalar(v) && text(v).startsWith(value as string);
    case 'endswith':
      return isScalar(v) && text(v).endsWith(value as string);
    default: {
      if (typeof v !== 'number') return false;
      const w = value as number;
      return op === 'lt' ? v < w : op === 'lte' ? v <= w : op === 'gt' ? v > w : v >= w;
    }
  }
}

const TRICKY: Record<string, readonly Scalar[]> = {
  text: ['443', 'true', '0', '1e3', '0443', ' 1', 'a.b'],
  number: [0, 1, -1, 1.5],
  boolean: [true, false],
};
const OPS: Record<string, readonly string[]> = {
  id: ['eq', 'ne', 'in', 'lt', 'lte', 'gt', 'gte'],
  number: ['eq', 'ne', 'in', 'lt', 'lte', 'gt', 'gte'],
  boolean: ['eq', 'ne'],
  string: ['eq', 'ne', 'contains', 'startswith', 'endswith', 'in'],
  scalar: ['eq', 'ne', 'contains', 'startswith', 'endswith', 'in'],
};

/** Values to try for a field: one from the data (an element, for lists), then PHP-retyped ones of its kind (two,
 * taken in turn from TRICKY so that every one is tried across the fields). */
let turn = 0;
function candidates(field: QueryField, rows: readonly Row[]): { real: Scalar[]; tricky: Scalar[] } {
  const kind = field.kind.endsWith('[]') ? field.kind.slice(0, -2) : field.kind;
  const seen = new Set<Scalar>();
  for (const row of rows) {
    const v = row[field.name];
    for (const e of Array.isArray(v) ? v : [v]) if (isScalar(e) && (typeof e !== 'string' || e.length <= 256) && seen.size < 1) seen.add(e);
  }
  const pool = (kind === 'boolean' ? TRICKY['boolean'] : kind === 'number' || kind === 'id' ? TRICKY['number'] : TRICKY['text']) ?? [];
  const tricky = [pool[turn % pool.length], pool[(turn + 1) % pool.length]] as Scalar[];
  turn += 2;
  const typed = (list: Scalar[]) =>
    list.filter((v) =>
      kind === 'boolean'
        ? typeof v === 'boolean'
        : kind === 'number'
          ? typeof v === 'number'
          : kind === 'id'
            ? Number.isInteger(v) && (v as number) >= 0
            : kind === 'string'
              ? typeof v === 'string'
              : typeof v !== 'boolean',
    );
  return { real: typed([...seen]), tricky: typed(tricky).filter((v) => !seen.has(v)) };
}

function applicable(field: QueryField, op: string, value: Scalar): boolean {
  if (field.kind.endsWith('[]')) return op === 'contains' && (typeof value !== 'string' || value.length > 0);
  if (!(OPS[field.kind] ?? []).includes(op)) return false;
  if (['contains', 'startswith', 'endswith'].includes(op)) return typeof value === 'string' && value.length > 0;
  return true;
}

const LISTS = READ_CATALOGUE.filter((t) => t.plural);
// The collections the demo appliance fills best, of every field kind (the whole catalogue would take minutes).
const TRIED = new Set([
  'pfsense_get_firewall_rules',
  'pfsense_get_firewall_aliases',
  'pfsense_get_firewall_nat_port_forwards',
  'pfsense_get_firewall_states',
  'pfsense_get_dhcp_static_mappings',
  'pfsense_get_dhcp_leases',
  'pfsense_get_service_status',
  'pfsense_get_gateway_status',
  'pfsense_get_interfaces',
  'pfsense_get_users',
]);
const key = (r: Row): string => `${String(r['parent_id'] ?? '')}/${String(r['id'])}`;

async function rows(tool: ReadToolDefinition, input: Record<string, unknown>): Promise<Row[]> {
  const flag = tool.supportsIdentifyingMetadata ? { include_identifying_metadata: true } : {};
  const result = (await runReadTool(client, tool, { limit: 1000, ...flag, ...input })) as PluralReadToolResult;
  expect(tool.conformsToOutputSchema(result), tool.name).toBe(true);
  return result.data as Row[];
}

describe('filters against the simulator (pfrest semantics) equal the documented meaning', () => {
  it('for every list tool, filterable field, operator and value', { timeout: 120_000 }, async () => {
    let calls = 0;
    let matchedSome = 0;
    for (const tool of LISTS.filter((t) => TRIED.has(t.name))) {
      const all = await rows(tool, {});
      const table = tool.queryFields;
      if (table === null) throw new Error(`${tool.name} has no query fields`);
      for (const field of table.byName.values()) {
        if (field.kind === 'model') continue;
        const { real, tricky } = candidates(field, all);
        for (const value of [...real, ...tricky]) {
          // Every operator on a real value; equality and search on the retyped ones (what PHP would get wrong).
          const ops = real.includes(value)
            ? ['eq', 'ne', 'contains', 'startswith', 'endswith', 'in', 'lt', 'lte', 'gt', 'gte']
            : ['eq', 'contains', 'lt'];
          for (const op of ops) {
            if (!applicable(field, op, value)) continue;
            const filterValue = op === 'in' ? [value] : value;
            const got = (await rows(tool, { filter: [{ field: field.name, op, value: filterValue }] })).map(key);
            const want = all.filter((r) => oracle(field, op, filterValue, r[field.name])).map(key);
            expect(got, `${tool.name} ${field.name} ${op} ${JSON.stringify(filterValue)}`).toEqual(want);
            calls += 1;
            if (want.length > 0 && want.length < all.length) matchedSome += 1;
          }
        }
      }
    }
    expect(TRIED.size).toBe(LISTS.filter((t) => TRIED.has(t.name)).length);
    expect(calls).toBeGreaterThan(500);
    expect(matchedSome).toBeGreaterThan(100);
    // Both paths ran: filters pfrest applied, and scans of the whole collection for the server's own.
    expect(sentQueries.some((q) => Object.keys(q).some((k) => k.endsWith('__exact')))).toBe(true);
    expect(sentQueries.some((q) => Object.keys(q).some((k) => k.endsWith('__contains')))).toBe(true);
    expect(sentQueries.some((q) => q['limit'] === 500 && Object.keys(q).length === 2)).toBe(true);
  });

  it('a scan keeps pfrest sort order, and paging a filtered list one row at a time is exact', async () => {
    const tool = LISTS.find((t) => t.name === 'pfsense_get_firewall_rules') as ReadToolDefinition;
    const sorted = await rows(tool, { sort_by: 'descr', sort_order: 'desc' });
    expect(sorted.map((r) => r['descr'])).toEqual([...sorted.map((r) => r['descr'] as string)].sort().reverse());
    const filter = [{ field: 'type', op: 'in', value: ['block', 'reject'] }];
    const scanned = await rows(tool, { filter, sort_by: 'descr', sort_order: 'desc' });
    expect(scanned.map(key)).toEqual(sorted.filter((r) => ['block', 'reject'].includes(r['type'] as string)).map(key));
    expect(scanned.length).toBeGreaterThan(3);
    for (const f of [filter, [{ field: 'type', op: 'eq', value: 'block' }]]) {
      const paged: Row[] = [];
      let offset: number | null = 0;
      while (offset !== null) {
        const page = (await runReadTool(client, tool, {
          filter: f,
          sort_by: 'descr',
          sort_order: 'desc',
          limit: 1,
          offset,
        })) as PluralReadToolResult;
        paged.push(...(page.data as Row[]));
        offset = page.next_offset;
      }
      expect(paged.map(key)).toEqual((await rows(tool, { filter: f, sort_by: 'descr', sort_order: 'desc' })).map(key));
    }
  });
});
