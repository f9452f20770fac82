import { describe, expect, it } from 'vitest';
import { readClock } from '../src/index.js';

describe('readClock', () => {
  it('returns the reading of a clock that gives non-negative integer milliseconds', () => {
    expect(readClock(() => 0, 'x')).toBe(0);
    expect(readClock(() => 1_700_000_000_000, 'x')).toBe(1_700_000_000_000);
  });

  it('refuses NaN, floats, negatives, unsafe integers and non-numbers, naming the caller', () => {
    for (const bad of [Number.NaN, 1.5, -1, Number.MAX_SAFE_INTEGER + 1, Infinity, '5', null]) {
      expect(() => readClock(() => bad as number, 'tryConsume')).toThrow(
        new TypeError('tryConsume: "clock" must return non-negative integer UTC milliseconds'),
      );
    }
  });
});
