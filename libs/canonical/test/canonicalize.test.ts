import { describe, expect, it } from 'vitest';
import { CanonicalError, DEFAULT_CANONICAL_LIMITS, canonicalBytes, canonicalize } from '../src/index.js';

function refusal(value: unknown, limits?: Parameters<typeof canonicalize>[1]): { code: string; path: string } {
  try {
    canonicalize(value, limits);
  } catch (e) {
    expect(e).toBeInstanceOf(CanonicalError);
    const err = e as CanonicalError;
    expect(err.name).toBe('CanonicalError');
    expect(err.message).toContain(err.path);
    return { code: err.code, path: err.path };
  }
  throw new Error('expected a CanonicalError');
}

describe('RFC 8785 examples adapted to the integer domain', () => {
  it('§3.2.2 sample: literals, string escaping, property order (numbers replaced by integers)', () => {
    // The RFC input with its floats replaced by safe integers; the string is verbatim from the RFC.
    const input = JSON.parse(
      '{"numbers": [333333333, 4, 2, 0, -1], "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/", "literals": [null, true, false]}',
    ) as unknown;
    expect(canonicalize(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333,4,2,0,-1],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('§3.2.3 sorting by UTF-16 code units', () => {
    const input = JSON.parse(
      '{"\\u20ac":"Euro Sign","\\r":"Carriage Return","\\ufb33":"Hebrew Letter Dalet With Dagesh","1":"One",' +
        '"\\ud83d\\ude00":"Emoji: Grinning Face","\\u0080":"Control","\\u00f6":"Latin Small Letter O With Diaeresis"}',
    ) as unknown;
    expect(canonicalize(input)).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","ö":"Latin Small Letter O With Diaeresis",' +
        '"€":"Euro Sign","😀":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  it('sorts by code units, not code points: U+FB33 (one unit 0xFB33) after U+1F600 (0xD83D ...)', () => {
    expect(canonicalize({ '\ufb33': 1, '\u{1f600}': 2 })).toBe('{"😀":2,"\ufb33":1}');
  });

  it('sorts integer-like keys as strings, not in JS insertion order', () => {
    expect(canonicalize({ 9: 'a', 10: 'b', 1: 'c' })).toBe('{"1":"c","10":"b","9":"a"}');
  });

  it('Appendix B integer cases', () => {
    expect(canonicalize(0)).toBe('0');
    expect(canonicalize(9007199254740991)).toBe('9007199254740991');
    expect(canonicalize(-9007199254740991)).toBe('-9007199254740991');
    expect(refusal(9007199254740992).code).toBe('UNSAFE_INTEGER');
    expect(refusal(1e21).code).toBe('UNSAFE_INTEGER');
    expect(refusal(-0).code).toBe('NEGATIVE_ZERO');
  });

  it('§3.2.2.2 control characters: short escapes where JSON has them, else lowercase \\u00XX', () => {
    expect(canonicalize('\b\f\n\r\t\u0000\u001f\u007f"\\/')).toBe('"\\b\\f\\n\\r\\t\\u0000\\u001f\u007f\\"\\\\/"');
  });

  it('no whitespace, nested structures', () => {
    expect(canonicalize({ b: [1, { d: null, c: true }], a: {} })).toBe('{"a":{},"b":[1,{"c":true,"d":null}]}');
    expect(canonicalize([])).toBe('[]');
    expect(canonicalize('')).toBe('""');
  });

  it('encodes strings exactly as given (no normalization)', () => {
    const decomposed = 'e\u0301';
    expect(canonicalize(decomposed)).toBe('"e\u0301"');
    expect(canonicalize(decomposed)).not.toBe(canonicalize('\u00e9'));
  });

  it('canonicalBytes is the UTF-8 of canonicalize', () => {
    const v = { '€': ['😀', 1] };
    expect(Buffer.from(canonicalBytes(v)).toString('utf8')).toBe(canonicalize(v));
    expect(Buffer.from(canonicalBytes(v)).toString('hex')).toBe('7b22e282ac223a5b22f09f9880222c315d7d');
  });

  it('accepts null-prototype objects and shared (acyclic) references', () => {
    const o = Object.create(null) as Record<string, unknown>;
    o['z'] = 1;
    o['a'] = 2;
    expect(canonicalize(o)).toBe('{"a":2,"z":1}');
    const shared = { x: 1 };
    expect(canonicalize([shared, shared])).toBe('[{"x":1},{"x":1}]');
  });
});

describe('refusals name the rule and the path', () => {
  class Thing {
    a = 1;
  }
  const cases: readonly [string, unknown, string, string][] = [
    ['float', { a: [1, 1.5] }, 'FLOAT', '$.a[1]'],
    ['NaN', { a: NaN }, 'NON_FINITE', '$.a'],
    ['Infinity', [Infinity], 'NON_FINITE', '$[0]'],
    ['-Infinity', { a: { b: -Infinity } }, 'NON_FINITE', '$.a.b'],
    ['-0', { 'x y': -0 }, 'NEGATIVE_ZERO', '$["x y"]'],
    ['unsafe integer', { n: 2 ** 53 }, 'UNSAFE_INTEGER', '$.n'],
    ['undefined value', { u: undefined }, 'UNDEFINED', '$.u'],
    ['undefined in array', [1, undefined], 'UNDEFINED', '$[1]'],
    ['function', { f: () => 1 }, 'FUNCTION', '$.f'],
    ['symbol', [Symbol('s')], 'SYMBOL', '$[0]'],
    ['bigint', { b: 1n }, 'BIGINT', '$.b'],
    ['Date', { d: new Date(0) }, 'NON_PLAIN_OBJECT', '$.d'],
    ['Map', { m: new Map() }, 'NON_PLAIN_OBJECT', '$.m'],
    ['Set', [new Set()], 'NON_PLAIN_OBJECT', '$[0]'],
    ['RegExp', { r: /x/ }, 'NON_PLAIN_OBJECT', '$.r'],
    ['Uint8Array', { u: new Uint8Array(1) }, 'NON_PLAIN_OBJECT', '$.u'],
    ['boxed string', { s: Object('x') }, 'NON_PLAIN_OBJECT', '$.s'],
    ['class instance', { t: new Thing() }, 'NON_PLAIN_OBJECT', '$.t'],
    ['array subclass', { a: new (class extends Array {})() }, 'NON_PLAIN_OBJECT', '$.a'],
    ['lone high surrogate', { s: 'a\ud800' }, 'LONE_SURROGATE', '$.s'],
    ['lone low surrogate', ['\udc00b'], 'LONE_SURROGATE', '$[0]'],
    ['reversed pair', ['\udc00\ud800'], 'LONE_SURROGATE', '$[0]'],
    ['lone surrogate in key', { ['k\ud800']: 1 }, 'LONE_SURROGATE', '$["k\\ud800"]'],
    ['symbol key', { [Symbol('k')]: 1 }, 'SYMBOL_KEY', '$'],
    ['sparse array', Object.assign(new Array<unknown>(3), { 0: 1, 2: 3 }), 'SPARSE_ARRAY', '$[1]'],
  ];
  it.each(cases)('%s', (_label, value, code, path) => {
    expect(refusal(value)).toEqual({ code, path });
  });

  it('cycles through objects and arrays', () => {
    const o: Record<string, unknown> = { a: [] };
    (o['a'] as unknown[]).push({ back: o });
    expect(refusal(o)).toEqual({ code: 'CYCLE', path: '$.a[0].back' });
    const arr: unknown[] = [];
    arr.push(arr);
    expect(refusal(arr)).toEqual({ code: 'CYCLE', path: '$[0]' });
  });

  it('accessor, non-enumerable and extra array properties', () => {
    let called = false;
    const getter = Object.defineProperty({}, 'g', {
      enumerable: true,
      get: () => {
        called = true;
        return 1;
      },
    });
    expect(refusal(getter)).toEqual({ code: 'ACCESSOR_PROPERTY', path: '$.g' });
    expect(called).toBe(false);
    const hidden = Object.defineProperty({ a: 1 }, 'h', { value: 2, enumerable: false });
    expect(refusal(hidden)).toEqual({ code: 'NON_ENUMERABLE_PROPERTY', path: '$.h' });
    const extra = Object.assign([1, 2], { note: 'x' });
    expect(refusal(extra)).toEqual({ code: 'ARRAY_EXTRA_PROPERTY', path: '$' });
    const indexGetter = Object.defineProperty([0], 0, { get: () => 1, enumerable: true });
    expect(refusal(indexGetter)).toEqual({ code: 'ACCESSOR_PROPERTY', path: '$[0]' });
  });

  it('long keys are shortened in the path and the message never carries values', () => {
    const key = 'k'.repeat(500);
    const r = refusal({ [key]: 0.5 });
    expect(r.path.length).toBeLessThan(100);
    try {
      canonicalize({ secret: 'hunter2-value', bad: 0.25 });
    } catch (e) {
      expect((e as Error).message).not.toContain('hunter2');
      expect((e as Error).message).not.toContain('0.25');
    }
  });
});

describe('limits', () => {
  function nest(depth: number): unknown {
    let v: unknown = 1;
    for (let i = 0; i < depth; i++) v = [v];
    return v;
  }

  it('defaults are frozen and sane', () => {
    expect(Object.isFrozen(DEFAULT_CANONICAL_LIMITS)).toBe(true);
    expect(DEFAULT_CANONICAL_LIMITS).toEqual({ maxDepth: 64, maxKeys: 1024, maxArrayLength: 10_000, maxBytes: 1_048_576 });
  });

  it('depth: exactly maxDepth passes, one more fails', () => {
    expect(() => canonicalize(nest(64))).not.toThrow();
    expect(refusal(nest(65)).code).toBe('MAX_DEPTH');
    expect(() => canonicalize(nest(3), { maxDepth: 3 })).not.toThrow();
    expect(refusal({ a: { b: { c: {} } } }, { maxDepth: 3 })).toEqual({ code: 'MAX_DEPTH', path: '$.a.b.c' });
  });

  it('keys per object', () => {
    const obj = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
    expect(() => canonicalize(obj(3), { maxKeys: 3 })).not.toThrow();
    expect(refusal({ inner: obj(4) }, { maxKeys: 3 })).toEqual({ code: 'MAX_KEYS', path: '$.inner' });
    expect(refusal(obj(1025)).code).toBe('MAX_KEYS');
  });

  it('array length', () => {
    expect(() => canonicalize([1, 2], { maxArrayLength: 2 })).not.toThrow();
    expect(refusal({ a: [1, 2, 3] }, { maxArrayLength: 2 })).toEqual({ code: 'MAX_ARRAY_LENGTH', path: '$.a' });
    expect(refusal(new Array(10_001).fill(0)).code).toBe('MAX_ARRAY_LENGTH');
  });

  it('bytes are counted in UTF-8 (a 4-byte emoji counts 4)', () => {
    expect(() => canonicalize('😀', { maxBytes: 6 })).not.toThrow(); // "😀" = 1 + 4 + 1
    expect(refusal('😀', { maxBytes: 5 }).code).toBe('MAX_BYTES');
    expect(refusal(['x'.repeat(DEFAULT_CANONICAL_LIMITS.maxBytes)]).code).toBe('MAX_BYTES');
  });

  it('rejects malformed limits by argument name', () => {
    expect(() => canonicalize(1, { maxDepth: 0 })).toThrow(/limits\.maxDepth/);
    expect(() => canonicalize(1, { maxBytes: 1.5 })).toThrow(RangeError);
    expect(() => canonicalize(1, { maxKeys: Number.NaN })).toThrow(RangeError);
    expect(() => canonicalize(1, { bogus: 1 } as never)).toThrow(TypeError);
    expect(() => canonicalize(1, null as never)).toThrow(TypeError);
    expect(() => canonicalBytes(1, 'x' as never)).toThrow(/canonicalBytes/);
  });
});
