const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * True when `s` has no lone UTF-16 surrogate, i.e. it is valid Unicode and encodes to UTF-8 without
 * replacement. (String.prototype.isWellFormed is ES2024; our lib target is ES2023, so we check by hand.)
 */
export function isWellFormed(s: string): boolean {
  // Almost every string has no surrogate at all: one regex scan instead of a loop over its code units.
  if (!SURROGATE.test(s)) return true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
      if (next < 0xdc00 || next > 0xdfff) return false;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      return false;
    }
  }
  return true;
}
