import { nearestName } from '@pfsense-mcp/foundation';
import { z } from 'zod';
import { isFilterable, isSortable, type QueryField, type QueryFieldTable } from './query-field.js';
import { FILTER_OPS, MAX_FILTERS, filterProblem, type FilterOp, type FilterScalar, type ReadFilter } from './read-filter.js';

export const SORT_ORDERS = Object.freeze(['asc', 'desc'] as const);
export type SortOrder = (typeof SORT_ORDERS)[number];

/** What a list call asks beyond paging, checked: the rows' fields, the filters (all must match) and the order. */
export interface ReadQuery {
  /** The named model fields (no ids: rows always carry them), or null for every field. */
  readonly fields: readonly string[] | null;
  readonly filters: readonly ReadFilter[];
  readonly sortBy: string | null;
  readonly sortOrder: SortOrder;
}

// The model-facing part of tools/list must stay small (docs/DESIGN.md §8: ≤ 48 KB for the full READ surface), so the
// schemas carry plain types only — no per-tool enum of field names, no item shape for a filter: the names, the
// filter shape and the operators are checked by checkReadQuery (whose errors name the nearest valid field) and
// explained once in the server's instructions. The meta drops what zod would add to an open object.
const FILTER_ITEM = z.looseObject({}).meta({ properties: undefined, additionalProperties: undefined });

/** The input properties every list tool takes besides limit/offset (all optional). */
export function readQueryShape(): Record<string, z.ZodType> {
  return {
    fields: z.array(z.string()).optional(),
    filter: z.array(FILTER_ITEM).optional(),
    sort_by: z.string().optional(),
    sort_order: z.string().optional(),
  };
}

/** The raw arguments checkReadQuery reads (after zod's type checks). */
export interface ReadQueryArgs {
  readonly fields?: readonly string[];
  readonly filter?: readonly Readonly<Record<string, unknown>>[];
  readonly sort_by?: string;
  readonly sort_order?: string;
  readonly include_identifying_metadata?: boolean;
}

/** Most names `fields` may hold (a tool has at most ~75 fields; repeats are harmless). */
const MAX_FIELD_NAMES = 128;
/** A name is echoed in an error only when it looks like one: the caller's own short identifier, never free text. */
const NAME = /^[A-Za-z0-9_.]{1,64}$/;
const FILTER_KEYS = ['field', 'op', 'value'] as const;

type Use = 'fields' | 'filter' | 'sort_by';
const USABLE: Readonly<Record<Use, (f: QueryField) => boolean>> = {
  // Naming an id in fields is harmless: rows always carry them.
  fields: () => true,
  filter: isFilterable,
  sort_by: isSortable,
};

interface Checker {
  readonly table: QueryFieldTable;
  readonly withheld: ReadonlySet<string>;
  readonly identifyingAllowed: boolean;
}

/** Why `name` cannot be used as `use`, naming it and the nearest name that can; null when it can. */
function nameProblem(c: Checker, name: unknown, use: Use): string | null {
  if (typeof name !== 'string' || !NAME.test(name)) return 'is not a field name';
  const field = c.table.byName.get(name);
  if (field !== undefined && USABLE[use](field) && (!field.identifying || c.identifyingAllowed)) return null;
  const valid = [...c.table.byName.values()].filter((f) => USABLE[use](f) && (!f.identifying || c.identifyingAllowed)).map((f) => f.name);
  const nearest = nearestName(name, valid);
  const hint = nearest === null ? '' : `; nearest valid: ${nearest}`;
  // A secret or withheld field is never selectable, filterable or sortable: a filter on one would leak it bit by bit.
  if (field === undefined) return `"${name}" is ${c.withheld.has(name) ? 'withheld (never returned)' : 'not a field of this tool'}${hint}`;
  if (field.identifying && !c.identifyingAllowed) return `"${name}" is identifying: set include_identifying_metadata to true`;
  return `"${name}" cannot be used in ${use}${hint}`;
}

/**
 * Checks `fields`, `filter`, `sort_by` and `sort_order` against the tool's table and adds one issue per problem.
 * Messages name arguments, fields and rules — never a filter value.
 */
export function checkReadQuery(table: QueryFieldTable, withheldFields: readonly string[], args: ReadQueryArgs, ctx: z.RefinementCtx): void {
  const c: Checker = { table, withheld: new Set(withheldFields), identifyingAllowed: args.include_identifying_metadata === true };
  const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
  const fields = args.fields;
  if (fields !== undefined) {
    if (fields.length === 0 || fields.length > MAX_FIELD_NAMES) issue(['fields'], `must name 1 to ${MAX_FIELD_NAMES} fields`);
    fields.forEach((name, i) => {
      const problem = nameProblem(c, name, 'fields');
      if (problem !== null) issue(['fields', i], problem);
    });
  }
  const filters = args.filter;
  if (filters !== undefined) {
    if (filters.length > MAX_FILTERS) issue(['filter'], `at most ${MAX_FILTERS} filters`);
    filters.forEach((f, i) => {
      const keys = Object.keys(f);
      if (keys.length !== FILTER_KEYS.length || !FILTER_KEYS.every((k) => Object.hasOwn(f, k))) {
        issue(['filter', i], 'each filter is exactly {field, op, value}');
        return;
      }
      const problem = nameProblem(c, f['field'], 'filter');
      if (problem !== null) return issue(['filter', i, 'field'], problem);
      const op = f['op'];
      if (typeof op !== 'string' || !(FILTER_OPS as readonly string[]).includes(op))
        return issue(['filter', i, 'op'], `must be one of ${FILTER_OPS.join(', ')}`);
      const field = table.byName.get(f['field'] as string) as QueryField;
      const typed = filterProblem(field, op as FilterOp, f['value']);
      if (typed !== null) issue(['filter', i], `"${field.name}" ${typed}`);
    });
  }
  if (args.sort_by !== undefined) {
    const problem = nameProblem(c, args.sort_by, 'sort_by');
    if (problem !== null) issue(['sort_by'], problem);
  }
  if (args.sort_order !== undefined) {
    if (!(SORT_ORDERS as readonly string[]).includes(args.sort_order)) issue(['sort_order'], `must be ${SORT_ORDERS.join(' or ')}`);
    else if (args.sort_by === undefined) issue(['sort_order'], 'needs sort_by');
  }
}

/** The ReadQuery of arguments checkReadQuery accepted. */
export function readQueryOf(table: QueryFieldTable, args: ReadQueryArgs): ReadQuery {
  const fields = args.fields === undefined ? null : table.modelFields.filter((name) => args.fields?.includes(name));
  const filters = (args.filter ?? []).map((f) =>
    Object.freeze({
      field: table.byName.get(f['field'] as string) as QueryField,
      op: f['op'] as FilterOp,
      value: (Array.isArray(f['value']) ? Object.freeze([...(f['value'] as FilterScalar[])]) : f['value']) as
        FilterScalar | readonly FilterScalar[],
    }),
  );
  return Object.freeze({
    fields: fields === null ? null : Object.freeze(fields),
    filters: Object.freeze(filters),
    sortBy: args.sort_by ?? null,
    sortOrder: (args.sort_order ?? 'asc') as SortOrder,
  });
}
