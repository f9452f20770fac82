import { describe, expect, it } from 'vitest';
import { InFlightLimiter } from '../src/index.js';

describe('InFlightLimiter', () => {
  it('grants at most `limit` at once and serves waiters first in, first out', async () => {
    const limiter = new InFlightLimiter(2);
    const order: number[] = [];
    const releases: Array<() => void> = [];
    const waiters = Array.from({ length: 6 }, (_, i) =>
      limiter.acquire().then((release) => {
        order.push(i);
        releases.push(release);
      }),
    );
    await Promise.resolve();
    await Promise.resolve();
    expect(order).toEqual([0, 1]);
    expect(limiter.active).toBe(2);
    expect(limiter.waiting).toBe(4);
    for (let served = 2; served < 6; served += 1) {
      releases.shift()?.();
      await new Promise((r) => setImmediate(r));
      expect(limiter.active).toBeLessThanOrEqual(2);
    }
    await Promise.all(waiters);
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('ignores a second release of the same grant', async () => {
    const limiter = new InFlightLimiter(1);
    const release = await limiter.acquire();
    const next = limiter.acquire();
    release();
    release();
    const release2 = await next;
    expect(limiter.active).toBe(1);
    release2();
    expect(limiter.active).toBe(0);
  });

  it('validates its limit', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => new InFlightLimiter(bad)).toThrow(RangeError);
  });
});
