// pfrest GET-many query semantics (pinned commit, vendor/pfrest/SOURCE.md): `Core/Model.inc::query` filters with
// `field[__filter]` (`Core/ModelSet.inc::query`), sorts (`array_multisort`, SORT_REGULAR, ids retained), pages with
// offset/limit, then reverses. Query-string values are typed first (`URLContentHandler::infer_type`); each filter
// is the PHP of `QueryFilters/*.inc` (see php-values.ts). Filters on fields the model does not have are ignored
// (pfrest skips them), and every object keeps its original `id` because ids are computed before the query runs.
import { ApiError } from './api-error.js';
import { compare, inArray, inferType, isNumeric, looseEquals, strval } from './php-values.js';

export const FILTER_NAMES = [
  'exact',
  'startswith',
  'endswith',
  'contains',
  'in',
  'lt',
  'lte',
  'gt',
  'gte',
  'regex',
  'except',
  'format',
] as const;
export type FilterName = (typeof FILTER_NAMES)[number];

const CONTROL_PARAMS = new Set([
  'limit',
  'offset',
  'sort_by',
  'sort_order',
  'sort_flags',
  'reverse',
  'apply',
  'async',
  'append',
  'remove',
  'placement',
  'dry_run',
]);
const ID_FIELDS = new Set(['id', 'parent_id']);

export type QueryValue = unknown;
export type QueryParams = Readonly<Record<string, QueryValue>>;

export interface QueryOptions {
  /** Field names the filters may use; filters naming other fields are ignored. */
  readonly knownFields: ReadonlySet<string>;
  /** Applied when the request gives no limit (firewall/states: 100); 0 = no limit. */
  readonly defaultLimit: number;
  /** The params came from a query string: type them as pfrest's URL content handler does (a JSON body is typed). */
  readonly fromQueryString?: boolean;
}

type Row = Readonly<Record<string, unknown>>;

/** One filter of `QueryFilters/`, on the field's value and the (typed) filter value. */
function matches(field: unknown, filter: FilterName, wanted: QueryValue): boolean {
  const f = field === undefined ? null : field;
  switch (filter) {
    case 'exact':
      // ExactQueryFilter: strict when either side is null, else loose ==.
      return f === null || wanted === null ? f === wanted : looseEquals(f, wanted);
    case 'except':
      return f === null || wanted === null ? f !== wanted : !looseEquals(f, wanted);
    case 'contains':
      return Array.isArray(f) ? inArray(wanted, f) : strval(f).includes(strval(wanted));
    case 'startswith':
      return strval(Array.isArray(f) ? (f[0] ?? false) : f).startsWith(strval(wanted));
    case 'endswith':
      return strval(Array.isArray(f) ? (f.length === 0 ? false : f[f.length - 1]) : f).endsWith(strval(wanted));
    case 'in':
      // InQueryFilter: a list value is in_array; otherwise the field's text must occur in the value's text.
      if (Array.isArray(wanted) && !Array.isArray(f)) return inArray(f, wanted);
      return strval(wanted).includes(strval(f));
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte': {
      if (!isNumeric(f) || !isNumeric(wanted)) return false;
      const a = Number(typeof f === 'string' ? f.trim() : f);
      const b = Number(typeof wanted === 'string' ? wanted.trim() : wanted);
      return filter === 'lt' ? a < b : filter === 'lte' ? a <= b : filter === 'gt' ? a > b : a >= b;
    }
    case 'regex':
      try {
        return new RegExp(strval(wanted)).test(strval(f));
      } catch {
        return false;
      }
    case 'format':
      // Not modelled: pfrest's format filter checks a value against a named format; accept everything.
      return true;
  }
}

function parseFilterKey(key: string): { field: string; filter: FilterName } {
  const at = key.lastIndexOf('__');
  if (at > 0) {
    const name = key.slice(at + 2);
    if ((FILTER_NAMES as readonly string[]).includes(name)) return { field: key.slice(0, at), filter: name as FilterName };
  }
  return { field: key, filter: 'exact' };
}

function toNonNegativeInt(value: QueryValue): number | undefined {
  const v = Array.isArray(value) ? value[value.length - 1] : value;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : Number.NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** `Endpoint::validate_sort_by` / `validate_sort_order`: model fields only (not `id`), SORT_ASC or SORT_DESC. */
function sortOf(params: QueryParams, knownFields: ReadonlySet<string>): { keys: string[]; sign: number } | null {
  if (params.sort_by === undefined) return null;
  const keys = Array.isArray(params.sort_by) ? params.sort_by : [params.sort_by];
  for (const key of keys) {
    if (typeof key !== 'string')
      throw new ApiError(400, 'ENDPOINT_SORT_BY_FIELD_INVALID_TYPE', 'Field `sort_by` must be of type `string`.');
    if (!knownFields.has(key) || ID_FIELDS.has(key)) {
      throw new ApiError(400, 'ENDPOINT_SORT_BY_FIELD_NON_EXISTENT_FIELD', 'Field `sort_by` must be a valid field in the Model.');
    }
  }
  const order = params.sort_order ?? 'SORT_ASC';
  if (order !== 'SORT_ASC' && order !== 'SORT_DESC') {
    throw new ApiError(
      400,
      'ENDPOINT_SORT_ORDER_FIELD_UNKNOWN_SORT_ORDER',
      "Field `sort_order` must be one of: ['SORT_ASC', 'SORT_DESC'].",
    );
  }
  return { keys: keys as string[], sign: order === 'SORT_DESC' ? -1 : 1 };
}

/** Runs filters → sort → pagination → reverse over rows that already carry their ids. */
export function applyQuery(rows: readonly Row[], raw: QueryParams, options: QueryOptions): Row[] {
  const params: QueryParams =
    options.fromQueryString === true ? (Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, inferType(v)])) as QueryParams) : raw;
  let out = rows.filter((row) => {
    for (const [key, wanted] of Object.entries(params)) {
      if (CONTROL_PARAMS.has(key)) continue;
      const { field, filter } = parseFilterKey(key);
      if (!options.knownFields.has(field)) continue;
      if (!matches(row[field], filter, wanted)) return false;
    }
    return true;
  });

  const sort = sortOf(params, options.knownFields);
  if (sort !== null) {
    // Stable: rows that compare equal keep their order (pfrest then compares the model objects themselves, an
    // order of their properties this simulator does not model).
    out = [...out].sort((a, b) => {
      for (const k of sort.keys) {
        const c = compare(a[k], b[k]);
        if (c !== 0) return sort.sign * c;
      }
      return 0;
    });
  }

  const offset = toNonNegativeInt(params.offset) ?? 0;
  const limit = params.limit === undefined ? options.defaultLimit : (toNonNegativeInt(params.limit) ?? options.defaultLimit);
  out = out.slice(offset);
  if (limit > 0) out = out.slice(0, limit);
  const reverse = params.reverse;
  if (reverse === true || reverse === 'true' || reverse === '1') out = out.reverse();
  return out;
}
