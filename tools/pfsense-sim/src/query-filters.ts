// pfrest GET-many query semantics: filters `field[__filter]`, then sort, then offset/limit. Filters on
// fields the model does not have are ignored (pfrest skips them), and every object keeps its original
// `id` because ids are computed before the query runs.

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

export type QueryValue = unknown;
export type QueryParams = Readonly<Record<string, QueryValue>>;

export interface QueryOptions {
  /** Field names the filters may use; filters naming other fields are ignored. */
  readonly knownFields: ReadonlySet<string>;
  /** Applied when the request gives no limit (firewall/states: 100); 0 = no limit. */
  readonly defaultLimit: number;
}

type Row = Readonly<Record<string, unknown>>;

function scalarText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function asList(value: QueryValue): readonly unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return value.split(',');
  return [value];
}

function asNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '') return Number(value);
  return Number.NaN;
}

function matches(fieldValue: unknown, filter: FilterName, wanted: QueryValue): boolean {
  const want = Array.isArray(wanted) && filter !== 'in' ? wanted[wanted.length - 1] : wanted;
  switch (filter) {
    case 'exact':
      return Array.isArray(fieldValue) ? scalarText(fieldValue) === scalarText(want) : scalarText(fieldValue) === scalarText(want);
    case 'except':
      return !matches(fieldValue, 'exact', want);
    case 'startswith':
      return typeof fieldValue === 'string' && fieldValue.startsWith(scalarText(want));
    case 'endswith':
      return typeof fieldValue === 'string' && fieldValue.endsWith(scalarText(want));
    case 'contains':
      if (Array.isArray(fieldValue)) return fieldValue.some((v) => scalarText(v) === scalarText(want));
      return typeof fieldValue === 'string' && fieldValue.includes(scalarText(want));
    case 'in': {
      const list = asList(wanted).map(scalarText);
      return list.includes(scalarText(fieldValue));
    }
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte': {
      const a = asNumber(fieldValue);
      const b = asNumber(want);
      if (Number.isNaN(a) || Number.isNaN(b)) return false;
      return filter === 'lt' ? a < b : filter === 'lte' ? a <= b : filter === 'gt' ? a > b : a >= b;
    }
    case 'regex':
      try {
        return new RegExp(scalarText(want)).test(scalarText(fieldValue));
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

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = scalarText(a);
  const y = scalarText(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Runs filters → sort → pagination over rows that already carry their ids. */
export function applyQuery(rows: readonly Row[], params: QueryParams, options: QueryOptions): Row[] {
  let out = rows.filter((row) => {
    for (const [key, wanted] of Object.entries(params)) {
      if (CONTROL_PARAMS.has(key)) continue;
      const { field, filter } = parseFilterKey(key);
      if (!options.knownFields.has(field)) continue;
      if (!matches(row[field], filter, wanted)) return false;
    }
    return true;
  });

  const sortBy = params.sort_by;
  if (sortBy !== undefined) {
    const keys = asList(sortBy)
      .map(scalarText)
      .filter((k) => options.knownFields.has(k));
    if (keys.length > 0) {
      const order = scalarText(Array.isArray(params.sort_order) ? params.sort_order[0] : params.sort_order);
      const sign = order === 'SORT_DESC' ? -1 : 1;
      out = [...out].sort((a, b) => {
        for (const k of keys) {
          const c = compare(a[k], b[k]);
          if (c !== 0) return sign * c;
        }
        return 0;
      });
    }
  }
  const reverse = params.reverse;
  if (reverse === true || reverse === 'true' || reverse === '1') out = [...out].reverse();

  const offset = toNonNegativeInt(params.offset) ?? 0;
  const limit = params.limit === undefined ? options.defaultLimit : (toNonNegativeInt(params.limit) ?? options.defaultLimit);
  out = out.slice(offset);
  if (limit > 0) out = out.slice(0, limit);
  return out;
}
