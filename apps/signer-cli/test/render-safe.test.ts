import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { asciiJson, isApproved, renderSafe } from '../src/index.js';

describe('renderSafe', () => {
  it('escapes controls, bidi and invisible characters and keeps ordinary text', () => {
    expect(renderSafe('Web servers — café 東京')).toBe('Web servers — café 東京');
    expect(renderSafe('a\nb\tc\\d\r')).toBe('a\\nb\\tc\\\\d\\r');
    expect(renderSafe('\u001b[31m')).toBe('\\u{001B}[31m');
    expect(renderSafe('\u202Eabc\u2066\u2069\u200B\u200E\u061C\uFEFF\u00AD')).toBe(
      '\\u{202E}abc\\u{2066}\\u{2069}\\u{200B}\\u{200E}\\u{061C}\\u{FEFF}\\u{00AD}',
    );
    expect(renderSafe('\u2028\u2029\u00A0\u0085\u{E0041}')).toBe('\\u{2028}\\u{2029}\\u{00A0}\\u{0085}\\u{E0041}');
  });

  it('never outputs a control or format character, and is injective', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), (a, b) => {
        const ra = renderSafe(a);
        if (/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(ra)) return false;
        return a === b || ra !== renderSafe(b);
      }),
      { numRuns: 200 },
    );
  });

  it('asciiJson is ASCII and round-trips', () => {
    const v = { d: 'x\u202E\u001b東' };
    expect(asciiJson(v)).toMatch(/^[\x20-\x7e]*$/);
    expect(JSON.parse(asciiJson(v))).toEqual(v);
  });
});

describe('isApproved', () => {
  it('accepts only the exact prefix, or "yes" at an interactive prompt', () => {
    expect(isApproved('0123456789ab', '0123456789ab', false)).toBe(true);
    expect(isApproved('yes', '0123456789ab', false)).toBe(false);
    expect(isApproved('yes', '0123456789ab', true)).toBe(true);
    expect(isApproved('0123456789AB', '0123456789ab', false)).toBe(false);
    expect(isApproved('0123456789a', '0123456789ab', false)).toBe(false);
    expect(isApproved(' 0123456789ab', '0123456789ab', true)).toBe(false);
    expect(isApproved('', '', true)).toBe(false);
  });
});
