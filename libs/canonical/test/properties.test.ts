import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DigestPurpose, canonicalize, digest } from '../src/index.js';

const key = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 4 }),
  fc.constantFrom('1', '10', '9', '__proto__'),
);
const leaf = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.maxSafeInteger(),
  fc.integer({ min: -1000, max: 1000 }).filter((n) => !Object.is(n, -0)),
  fc.string({ maxLength: 10 }),
  fc.string({ unit: 'binary', maxLength: 10 }),
);
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4, noNullPrototype: false }),
  ),
}));

/** Same data with every object's keys inserted in reverse order. */
function reversed(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reversed);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = Object.create(Object.getPrototypeOf(v) as object | null) as Record<string, unknown>;
    for (const k of Object.keys(v).reverse()) {
      Object.defineProperty(out, k, {
        value: reversed((v as Record<string, unknown>)[k]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return v;
}

const purposes = Object.values(DigestPurpose);

describe('properties', () => {
  it('round-trip: JSON.parse(canonicalize(x)) re-canonicalizes identically', () => {
    fc.assert(
      fc.property(value, (v) => {
        const text = canonicalize(v);
        expect(canonicalize(JSON.parse(text))).toBe(text);
      }),
      { numRuns: 200 },
    );
  });

  it('output is valid JSON equal in content to the input', () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(JSON.parse(canonicalize(v))).toEqual(JSON.parse(JSON.stringify(v)));
      }),
      { numRuns: 200 },
    );
  });

  it('key-order independence', () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(canonicalize(reversed(v))).toBe(canonicalize(v));
      }),
      { numRuns: 200 },
    );
  });

  it('purpose separation: one value under two purposes never gives the same digest', () => {
    fc.assert(
      fc.property(value, fc.constantFrom(...purposes), fc.constantFrom(...purposes), (v, p1, p2) => {
        fc.pre(p1 !== p2);
        expect(digest(p1, v)).not.toBe(digest(p2, v));
      }),
      { numRuns: 200 },
    );
  });

  it('distinct canonical texts give distinct digests under one purpose', () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        fc.pre(canonicalize(a) !== canonicalize(b));
        expect(digest(DigestPurpose.INTENT, a)).not.toBe(digest(DigestPurpose.INTENT, b));
      }),
      { numRuns: 200 },
    );
  });
});
