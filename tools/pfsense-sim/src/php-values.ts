// The PHP 8 value semantics pfrest's queries run on (pfrest is PHP; pinned commit in vendor/pfrest/SOURCE.md):
// the query string's type inference, loose `==`, `strval`, `is_numeric` and the standard comparison `<=>` that
// `array_multisort(SORT_REGULAR)` uses. Scalars, null and lists only — what a JSON row holds.

// PHP 8 `is_numeric`: optional leading and trailing whitespace, a sign, digits with an optional fraction, an exponent.
const NUMERIC = /^[ \t\n\r\v\f]*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?[ \t\n\r\v\f]*$/;

export function isNumeric(v: unknown): boolean {
  return (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && NUMERIC.test(v));
}

/** `ContentHandlers/URLContentHandler.inc::infer_type`: query-string text to bool, null, int or float. */
export function inferType(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(inferType);
  if (typeof v !== 'string') return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (v === 'null') return null;
  if (/^\d+$/.test(v)) return Number(v);
  if (v.includes('.') && NUMERIC.test(v)) return Number(v.trim());
  return v;
}

/** PHP's `strval` of a JSON value (a list is "Array"). */
export function strval(v: unknown): string {
  if (v === null || v === undefined || v === false) return '';
  if (v === true) return '1';
  // PHP prints floats with `precision` 14; JSON rows hold short decimals, where the two agree.
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return v;
  return 'Array';
}

/** PHP's conversion to bool. */
export function toBool(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === '' || v === '0') return false;
  if (Array.isArray(v)) return v.length > 0;
  return true;
}

/** PHP 8 `$a <=> $b` for JSON values (-1, 0, 1). */
export function compare(a: unknown, b: unknown): number {
  const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : 0);
  const text = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  // null <=> string: null becomes "".
  if (a === null && typeof b === 'string') return text('', b);
  if (b === null && typeof a === 'string') return text(a, '');
  // bool or null <=> anything: both sides become bool.
  if (typeof a === 'boolean' || typeof b === 'boolean' || a === null || b === null) return sign(Number(toBool(a)) - Number(toBool(b)));
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a)) return -1;
    if (!Array.isArray(b)) return 1;
    if (a.length !== b.length) return sign(a.length - b.length);
    for (let i = 0; i < a.length; i += 1) {
      const c = compare(a[i], b[i]);
      if (c !== 0) return c;
    }
    return 0;
  }
  if (typeof a === 'object' || typeof b === 'object') return 0;
  // Numbers and numeric strings compare as numbers; a number and a non-numeric string compare as strings (PHP 8).
  if (isNumeric(a) && isNumeric(b))
    return sign(Number(typeof a === 'string' ? a.trim() : a) - Number(typeof b === 'string' ? b.trim() : b));
  return text(strval(a), strval(b));
}

/** PHP 8 loose `$a == $b`. */
export function looseEquals(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => looseEquals(x, b[i]));
  if (Array.isArray(a) !== Array.isArray(b) && a !== null && b !== null && typeof a !== 'boolean' && typeof b !== 'boolean') return false;
  return compare(a, b) === 0;
}

/** PHP's `in_array($needle, $haystack)` (loose). */
export function inArray(needle: unknown, haystack: readonly unknown[]): boolean {
  return haystack.some((v) => looseEquals(v, needle));
}
