/**
 * A counting semaphore with a FIFO queue: at most `limit` holders at once, waiters served in
 * arrival order. pfSense is a small box and an AI client may fire many calls at once.
 */
export class InFlightLimiter {
  readonly limit: number;
  #active = 0;
  #queue: Array<() => void> = [];
  #head = 0;

  constructor(limit: number) {
    if (!Number.isSafeInteger(limit) || limit < 1) {
      throw new RangeError('InFlightLimiter: "limit" must be a positive integer');
    }
    this.limit = limit;
  }

  get active(): number {
    return this.#active;
  }

  get waiting(): number {
    return this.#queue.length - this.#head;
  }

  /** Resolves with a release function once a slot is free. Releasing twice is a no-op. */
  acquire(): Promise<() => void> {
    return new Promise((resolve) => {
      const grant = (): void => {
        this.#active += 1;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.#active -= 1;
          this.#next();
        });
      };
      if (this.#active < this.limit && this.waiting === 0) grant();
      else this.#queue.push(grant);
    });
  }

  #next(): void {
    if (this.#active >= this.limit || this.waiting === 0) return;
    const grant = this.#queue[this.#head];
    this.#queue[this.#head] = undefined as unknown as () => void;
    this.#head += 1;
    if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
    grant?.();
  }
}
