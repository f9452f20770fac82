// Deterministic pseudo-random numbers for the demo data (same --seed, same appliance). Not for secrets.
import { createHash } from 'node:crypto';

export class SeededRandom {
  #state: number;

  constructor(seed: string) {
    if (typeof seed !== 'string') throw new TypeError('SeededRandom: "seed" must be a string');
    this.#state = createHash('sha256').update(seed, 'utf8').digest().readUInt32LE(0) || 0x9e3779b9;
  }

  /** mulberry32: uniform in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new RangeError('SeededRandom.pick: "items" must not be empty');
    return item;
  }

  hex(bytes: number): string {
    let out = '';
    for (let i = 0; i < bytes; i++) out += this.int(0, 255).toString(16).padStart(2, '0');
    return out;
  }

  mac(prefix = ''): string {
    const parts = prefix ? prefix.split(':') : [];
    while (parts.length < 6) parts.push(this.int(0, 255).toString(16).padStart(2, '0'));
    return parts.join(':');
  }

  base64(bytes: number): string {
    return Buffer.from(this.hex(bytes), 'hex').toString('base64');
  }
}
