// What pfrest does to a query-string value before a filter sees it (pinned commit, see vendor/pfrest/SOURCE.md):
// `ContentHandlers/URLContentHandler.inc::infer_type` turns 'true'/'false' into booleans, 'null' into null, all-digit
// text (`ctype_digit`) into an integer and numeric text with a '.' into a float; anything else stays a string. The
// filters in `QueryFilters/` then compare with PHP 8's loose `==` (`ExactQueryFilter`, `ExceptQueryFilter`,
// `in_array` in `ContainsQueryFilter` on lists), which compares two numeric strings as numbers, or search
// `strval()` of both sides (`ContainsQueryFilter`, `StartsWithQueryFilter`, `EndsWithQueryFilter`). A filter is sent
// to pfrest only when that typing cannot change its meaning; these two checks decide it for text values.

const KEYWORDS: ReadonlySet<string> = new Set(['true', 'false', 'null']);
// PHP 8 `is_numeric`: optional leading and trailing whitespace, a sign, digits with an optional fraction, an
// optional exponent.
const PHP_NUMERIC = /^[ \t\n\r\v\f]*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?[ \t\n\r\v\f]*$/;
const DIGITS = /^\d+$/;
/** Digits PHP's intval keeps exactly on a 64-bit build (PHP_INT_MAX has 19). */
const MAX_EXACT_DIGITS = 18;

/** PHP 8's `is_numeric` for a string. */
export function isPhpNumeric(text: string): boolean {
  return PHP_NUMERIC.test(text);
}

/**
 * True when pfrest's equality (`exact`, `except`, `in_array`) compares `text` with a text field byte for byte: it
 * stays a string after type inference and is not numeric, so PHP never compares it as a number or a boolean.
 */
export function comparesAsText(text: string): boolean {
  return !KEYWORDS.has(text) && !isPhpNumeric(text);
}

/** True when `strval(infer_type(text)) === text`: pfrest's contains/startswith/endswith search for exactly `text`. */
export function searchesAsText(text: string): boolean {
  if (KEYWORDS.has(text)) return false;
  // All digits become an integer; strval gives the text back unless it had leading zeros or overflowed.
  if (DIGITS.test(text)) return text.length <= MAX_EXACT_DIGITS && (text === '0' || !text.startsWith('0'));
  // Numeric text with a '.' becomes a float, whose strval rarely matches the text.
  return !(text.includes('.') && isPhpNumeric(text));
}
