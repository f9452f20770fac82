import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { asciiJson, isApproved, renderSafe } from '../src/index.js';
import { unescapeShown } from './terminal.js';

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

  it('escapes default-ignorable and blank-looking code points, extra combining marks, quotes and space runs', () => {
    expect(renderSafe('Ser\u034Fvers')).toBe('Ser\\u{034F}vers');
    expect(renderSafe('a\uFE0Fb\u3164c\u2800d\u115Fe\uFFA0f\u{E0100}')).toBe(
      'a\\u{FE0F}b\\u{3164}c\\u{2800}d\\u{115F}e\\u{FFA0}f\\u{E0100}',
    );
    // One mark on a letter or digit stays; every further mark, and a mark on anything else, is escaped.
    expect(renderSafe('Cafe\u0301')).toBe('Cafe\u0301');
    expect(renderSafe('e\u0301\u0302\u0303')).toBe('e\u0301\\u{0302}\\u{0303}');
    expect(renderSafe('\u0301x')).toBe('\\u{0301}x');
    expect(renderSafe(' \u0301')).toBe(' \\u{0301}');
    expect(renderSafe('"\u0301')).toBe('\\"\\u{0301}');
    expect(renderSafe('say "hi"')).toBe('say \\"hi\\"');
    expect(renderSafe('a b  c   d')).toBe('a b\\u{0020}\\u{0020}c\\u{0020}\\u{0020}\\u{0020}d');
    expect(renderSafe(' lead and trail ')).toBe(' lead and trail ');
  });

  it('never outputs a control, format, default-ignorable or blank-looking character, nor two marks in a row; round-trips', () => {
    const hostile = fc.constantFrom(
      '\u034F',
      '\uFE0F',
      '\u3164',
      '\u2800',
      '\u0301',
      '\u0336',
      '"',
      ' ',
      '\\',
      '\u202E',
      '\u200B',
      'e',
      '東',
    );
    const text = fc.oneof(
      fc.string({ unit: 'grapheme' }),
      fc.string({ unit: 'binary' }),
      fc.array(hostile).map((a) => a.join('')),
    );
    fc.assert(
      fc.property(text, text, (a, b) => {
        const ra = renderSafe(a);
        if (/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2800"]|\p{M}\p{M}| {2}/u.test(ra.replaceAll('\\"', 'Q')))
          return false;
        if (unescapeShown(ra) !== a) return false;
        return a === b || ra !== renderSafe(b);
      }),
      { numRuns: 500 },
    );
  });

  it('asciiJson is ASCII and round-trips', () => {
    const v = { d: 'x\u202E\u001b東' };
    expect(asciiJson(v)).toMatch(/^[\x20-\x7e]*$/);
    expect(JSON.parse(asciiJson(v))).toEqual(v);
  });
});

describe('isApproved', () => {
  it('accepts only the exact code: never "yes", never another case or length', () => {
    expect(isApproved('0123456789ab', '0123456789ab')).toBe(true);
    expect(isApproved('yes', '0123456789ab')).toBe(false);
    expect(isApproved('0123456789AB', '0123456789ab')).toBe(false);
    expect(isApproved('0123456789a', '0123456789ab')).toBe(false);
    expect(isApproved(' 0123456789ab', '0123456789ab')).toBe(false);
    expect(isApproved('', '')).toBe(false);
  });
});
