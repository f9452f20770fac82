import { TransportError } from './transport-error.js';

/** Bounds on the queue in front of the in-flight slots; both optional (unbounded, no deadline). */
export interface InFlightLimiterOptions {
  /** Most callers waiting for a slot at once; one more is refused at once with `BUSY`. */
  readonly maxQueued?: number;
  /** Longest wait for a slot; past it the caller gets `QUEUE_TIMEOUT` (the appliance is slow). */
  readonly queueTimeoutMs?: number;
}

interface Waiter {
  readonly grant: () => void;
  done: boolean;
}

/**
 * A counting semaphore with a FIFO queue: at most `limit` holders at once, waiters served in
 * arrival order. pfSense is a small box and an AI client may fire many calls at once. A waiter can
 * leave the queue (its signal aborted, its wait deadline passed) without ever holding a slot, and the
 * queue itself is bounded, so hung upstream calls cannot pile up callers without end.
 */
export class InFlightLimiter {
  readonly limit: number;
  readonly maxQueued: number;
  readonly queueTimeoutMs: number;
  #active = 0;
  #waiting = 0;
  #queue: Array<Waiter | undefined> = [];
  #head = 0;

  constructor(limit: number, options: InFlightLimiterOptions = {}) {
    if (!Number.isSafeInteger(limit) || limit < 1) {
      throw new RangeError('InFlightLimiter: "limit" must be a positive integer');
    }
    const { maxQueued = Number.MAX_SAFE_INTEGER, queueTimeoutMs = 0 } = options;
    if (!Number.isSafeInteger(maxQueued) || maxQueued < 0) {
      throw new RangeError('InFlightLimiter: "maxQueued" must be a non-negative integer');
    }
    if (!Number.isSafeInteger(queueTimeoutMs) || queueTimeoutMs < 0) {
      throw new RangeError('InFlightLimiter: "queueTimeoutMs" must be a non-negative integer (0 = no deadline)');
    }
    this.limit = limit;
    this.maxQueued = maxQueued;
    this.queueTimeoutMs = queueTimeoutMs;
  }

  get active(): number {
    return this.#active;
  }

  get waiting(): number {
    return this.#waiting;
  }

  /**
   * Resolves with a release function once a slot is free. Releasing twice is a no-op. Rejects with a
   * TransportError (nothing was written) when the queue is full (`BUSY`), the wait deadline passed
   * (`QUEUE_TIMEOUT`) or `signal` aborted first (`CANCELLED`).
   */
  acquire(signal?: AbortSignal): Promise<() => void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted === true) {
        reject(cancelled());
        return;
      }
      const release = (): (() => void) => {
        let released = false;
        return () => {
          if (released) return;
          released = true;
          this.#active -= 1;
          this.#next();
        };
      };
      if (this.#active < this.limit && this.#waiting === 0) {
        this.#active += 1;
        resolve(release());
        return;
      }
      if (this.#waiting >= this.maxQueued) {
        reject(new TransportError('transport: too many requests are waiting for the appliance', 'BUSY', false));
        return;
      }
      let timer: NodeJS.Timeout | undefined;
      const leave = (error: TransportError): void => {
        if (waiter.done) return;
        waiter.done = true;
        this.#waiting -= 1;
        cleanup();
        reject(error);
      };
      const onAbort = (): void => leave(cancelled());
      const cleanup = (): void => {
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const waiter: Waiter = {
        done: false,
        grant: () => {
          cleanup();
          this.#active += 1;
          resolve(release());
        },
      };
      this.#queue.push(waiter);
      this.#waiting += 1;
      signal?.addEventListener('abort', onAbort, { once: true });
      if (this.queueTimeoutMs > 0) {
        timer = setTimeout(
          () => leave(new TransportError('transport: the appliance is slow; no request slot was free in time', 'QUEUE_TIMEOUT', false)),
          this.queueTimeoutMs,
        );
        timer.unref();
      }
    });
  }

  #next(): void {
    while (this.#active < this.limit && this.#head < this.#queue.length) {
      const waiter = this.#queue[this.#head];
      this.#queue[this.#head] = undefined;
      this.#head += 1;
      if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
        this.#queue = this.#queue.slice(this.#head);
        this.#head = 0;
      }
      if (waiter === undefined || waiter.done) continue;
      waiter.done = true;
      this.#waiting -= 1;
      waiter.grant();
    }
  }
}

function cancelled(): TransportError {
  return new TransportError('transport: the request was cancelled before it was sent', 'CANCELLED', false);
}
