import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../src/index.js';

describe('deepFreeze', () => {
  it('freezes objects and arrays all the way down and returns the same value', () => {
    const value = { a: [{ b: 1 }, [2, { c: 'x' }]], d: { e: null } };
    const frozen = deepFreeze(value);
    expect(frozen).toBe(value);
    for (const node of [value, value.a, value.a[0], value.a[1], (value.a[1] as unknown[])[1], value.d])
      expect(Object.isFrozen(node)).toBe(true);
    expect(() => {
      (value.a[0] as { b: number }).b = 2;
    }).toThrow(TypeError);
  });

  it('returns primitives and null unchanged', () => {
    for (const v of [null, undefined, 0, 'x', true, 1n]) expect(deepFreeze(v)).toBe(v);
  });

  it('ends on a cycle and freezes a shared node once', () => {
    const shared = { n: 1 };
    const cyclic: { self?: unknown; left: object; right: object } = { left: shared, right: shared };
    cyclic.self = cyclic;
    expect(deepFreeze(cyclic)).toBe(cyclic);
    expect(Object.isFrozen(shared)).toBe(true);
  });

  it('does not descend into a node that is already frozen', () => {
    const inner = { x: 1 };
    const outer = Object.freeze({ inner });
    deepFreeze({ outer });
    expect(Object.isFrozen(inner)).toBe(false);
  });
});
