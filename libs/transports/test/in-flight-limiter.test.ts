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

describe('InFlightLimiter queue bounds', () => {
  it('an aborted waiter leaves the queue without taking a slot, and the next waiter gets it', async () => {
    const limiter = new InFlightLimiter(1);
    const release = await limiter.acquire();
    const controller = new AbortController();
    const cancelled = limiter.acquire(controller.signal);
    const next = limiter.acquire();
    expect(limiter.waiting).toBe(2);
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ code: 'CANCELLED', requestWritten: false });
    expect(limiter.waiting).toBe(1);
    release();
    const releaseNext = await next;
    expect(limiter.active).toBe(1);
    releaseNext();
    expect(limiter.active).toBe(0);
  });

  it('refuses a caller past maxQueued at once with BUSY', async () => {
    const limiter = new InFlightLimiter(1, { maxQueued: 1 });
    const release = await limiter.acquire();
    const queued = limiter.acquire();
    await expect(limiter.acquire()).rejects.toMatchObject({ code: 'BUSY', requestWritten: false });
    release();
    (await queued)();
  });

  it('gives up a wait past queueTimeoutMs with QUEUE_TIMEOUT and frees its queue place', async () => {
    const limiter = new InFlightLimiter(1, { queueTimeoutMs: 20 });
    const release = await limiter.acquire();
    await expect(limiter.acquire()).rejects.toMatchObject({ code: 'QUEUE_TIMEOUT', requestWritten: false });
    expect(limiter.waiting).toBe(0);
    release();
    expect(limiter.active).toBe(0);
  });

  it('refuses an already aborted signal before queueing', async () => {
    const limiter = new InFlightLimiter(1);
    await expect(limiter.acquire(AbortSignal.abort())).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(limiter.active).toBe(0);
  });
});
