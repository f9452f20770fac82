import { comparesAsText, searchesAsText } from './pfrest-query-typing.js';
import type { QueryField } from './query-field.js';

/** The closed set of filter operators. pfrest's `regex` is not offered: a pattern costs the appliance CPU per row. */
export const FILTER_OPS = Object.freeze(['eq', 'ne', 'contains', 'startswith', 'endswith', 'in', 'lt', 'lte', 'gt', 'gte'] as const);
export type FilterOp = (typeof FILTER_OPS)[number];
export const MAX_FILTERS = 8;
/** Most values of one `in` filter. */
export const MAX_IN_VALUES = 32;
/** Longest text value: the read client's bound on one query value. */
export const MAX_FILTER_TEXT = 256;

export type FilterScalar = string | number | boolean;

/** One checked filter: every filter of a call must match (AND). */
export interface ReadFilter {
  readonly field: QueryField;
  readonly op: FilterOp;
  readonly value: FilterScalar | readonly FilterScalar[];
}

type ElementKind = 'id' | 'number' | 'boolean' | 'string' | 'scalar';

const COMPARE: readonly FilterOp[] = ['eq', 'ne', 'in', 'lt', 'lte', 'gt', 'gte'];
const TEXT: readonly FilterOp[] = ['eq', 'ne', 'contains', 'startswith', 'endswith', 'in'];
const OPS_BY_KIND: Readonly<Record<QueryField['kind'], readonly FilterOp[]>> = Object.freeze({
  id: COMPARE,
  number: COMPARE,
  boolean: ['eq', 'ne'],
  string: TEXT,
  scalar: TEXT,
  // A list matches `contains` when one element equals the value (pfrest: in_array).
  'string[]': ['contains'],
  'number[]': ['contains'],
  'boolean[]': ['contains'],
  'scalar[]': ['contains'],
  model: [],
});
const SEARCH: ReadonlySet<FilterOp> = new Set(['contains', 'startswith', 'endswith']);
/** pfrest's filter names (`QueryFilters/*.inc`, `$name`); `in` is always applied in the server (see upstreamFilter). */
const PFREST_FILTER: Readonly<Record<Exclude<FilterOp, 'in'>, string>> = Object.freeze({
  eq: 'exact',
  ne: 'except',
  contains: 'contains',
  startswith: 'startswith',
  endswith: 'endswith',
  lt: 'lt',
  lte: 'lte',
  gt: 'gt',
  gte: 'gte',
});
/** pfrest's query keys must also be the read client's (lower-case identifiers of at most 64 characters). */
const QUERY_KEY = /^[a-z_][a-z0-9_]{0,63}$/;

function elementKind(kind: QueryField['kind']): ElementKind {
  return (kind.endsWith('[]') ? kind.slice(0, -2) : kind) as ElementKind;
}

/** The operators a field takes. */
export function opsOf(field: QueryField): readonly FilterOp[] {
  return OPS_BY_KIND[field.kind];
}

function scalarProblem(kind: ElementKind, v: unknown, search: boolean): string | null {
  const number = typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER;
  const text = typeof v === 'string' && v.length <= MAX_FILTER_TEXT && (!search || v.length > 0);
  switch (kind) {
    case 'id':
      return Number.isSafeInteger(v) && (v as number) >= 0 ? null : 'must be an integer >= 0';
    case 'number':
      return number ? null : 'must be a number';
    case 'boolean':
      return typeof v === 'boolean' ? null : 'must be true or false';
    case 'string':
      return text
        ? null
        : search
          ? `must be a string of 1 to ${MAX_FILTER_TEXT} characters`
          : `must be a string of at most ${MAX_FILTER_TEXT} characters`;
    case 'scalar':
      if (search) return text ? null : `must be a string of 1 to ${MAX_FILTER_TEXT} characters`;
      return text || number ? null : `must be a string (at most ${MAX_FILTER_TEXT} characters) or a number`;
  }
}

/**
 * What is wrong with `op` and `value` for `field`, as a fixed text naming only the rule (never the value), or
 * null when the filter is well-typed.
 */
export function filterProblem(field: QueryField, op: FilterOp, value: unknown): string | null {
  const ops = opsOf(field);
  if (!ops.includes(op)) return ops.length === 0 ? 'cannot be filtered' : `takes op ${ops.join(', ')}`;
  const kind = elementKind(field.kind);
  if (op !== 'in') {
    const problem = scalarProblem(kind, value, SEARCH.has(op) && !field.kind.endsWith('[]'));
    return problem === null ? null : `value ${problem}`;
  }
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_IN_VALUES)
    return `value of in must be a list of 1 to ${MAX_IN_VALUES} values`;
  for (const v of value) {
    const problem = scalarProblem(kind, v, false);
    if (problem !== null) return `each value of in ${problem}`;
  }
  return null;
}

function textOf(v: FilterScalar): string {
  return typeof v === 'string' ? v : String(v);
}

function isScalar(v: unknown): v is FilterScalar {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

/** Equality of a projected value and a filter value: text fields of mixed JSON type (ports, ids) compare as text. */
function same(kind: ElementKind, v: unknown, want: FilterScalar): boolean {
  if (!isScalar(v)) return false;
  return kind === 'scalar' || kind === 'id' ? textOf(v) === textOf(want) : v === want;
}

/**
 * Whether one projected row's value matches the filter — the meaning of every operator, applied in the server and,
 * where upstreamFilter passes a filter to pfrest, the same as pfrest's. A null (absent) value matches only `ne`.
 */
export function matchesFilter(filter: ReadFilter, v: unknown): boolean {
  const kind = elementKind(filter.field.kind);
  const value = filter.value;
  switch (filter.op) {
    case 'eq':
      return same(kind, v, value as FilterScalar);
    case 'ne':
      return !same(kind, v, value as FilterScalar);
    case 'in':
      return (value as readonly FilterScalar[]).some((w) => same(kind, v, w));
    case 'contains':
      if (filter.field.kind.endsWith('[]')) return Array.isArray(v) && v.some((e) => same(kind, e, value as FilterScalar));
      return isScalar(v) && textOf(v).includes(value as string);
    case 'startswith':
      return isScalar(v) && textOf(v).startsWith(value as string);
    case 'endswith':
      return isScalar(v) && textOf(v).endsWith(value as string);
    case 'lt':
      return typeof v === 'number' && v < (value as number);
    case 'lte':
      return typeof v === 'number' && v <= (value as number);
    case 'gt':
      return typeof v === 'number' && v > (value as number);
    case 'gte':
      return typeof v === 'number' && v >= (value as number);
  }
}

/** A number as a query value: the read client sends safe integers as numbers, anything else as its text. */
function queryNumber(n: number): string | number {
  return Number.isSafeInteger(n) ? n : String(n);
}

/**
 * The pfrest query parameter that applies `filter` upstream with exactly matchesFilter's meaning, or null when only
 * the server can: `in` (pfrest's array form needs a `key[]` parameter the read client does not send, and a comma
 * string would match substrings, `InQueryFilter`), a text value pfrest's type inference would retype or PHP would
 * compare as a number (see pfrest-query-typing.ts), and a number on a text field (PHP compares `"0443" == 443`).
 * Booleans, numbers and ids always go upstream.
 */
export function upstreamFilter(filter: ReadFilter): readonly [string, string | number] | null {
  if (filter.op === 'in') return null;
  const key = `${filter.field.name}__${PFREST_FILTER[filter.op]}`;
  if (!QUERY_KEY.test(key)) return null;
  const value = filter.value as FilterScalar;
  switch (elementKind(filter.field.kind)) {
    case 'boolean':
      return [key, value ? 'true' : 'false'];
    case 'id':
    case 'number':
      return [key, queryNumber(value as number)];
    case 'string':
    case 'scalar': {
      if (typeof value !== 'string') return null;
      const onList = filter.field.kind.endsWith('[]');
      const exact = onList || !SEARCH.has(filter.op) ? comparesAsText(value) : searchesAsText(value);
      return exact ? [key, value] : null;
    }
  }
}
