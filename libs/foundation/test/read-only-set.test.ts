import { describe, expect, it } from 'vitest';
import { ReadOnlySet } from '../src/index.js';

describe('ReadOnlySet', () => {
  it('holds its construction values, in order, and is frozen', () => {
    const s = new ReadOnlySet(['b', 'a', 'b']);
    expect([...s]).toEqual(['b', 'a']);
    expect(s.has('a')).toBe(true);
    expect(s.size).toBe(2);
    expect(s).toBeInstanceOf(Set);
    expect(Object.isFrozen(s)).toBe(true);
  });

  it('refuses add, delete and clear, even through a cast', () => {
    const s = new ReadOnlySet<string>(['a']);
    const asSet = s as unknown as Set<string>;
    expect(() => asSet.add('b')).toThrow(/read-only/u);
    expect(() => asSet.delete('a')).toThrow(/read-only/u);
    expect(() => asSet.clear()).toThrow(/read-only/u);
    expect([...s]).toEqual(['a']);
  });
});
