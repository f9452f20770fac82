/** One item cut from the input stream: a whole line (without its `\n`), or the notice that a line was too long. */
export type SplitItem =
  | { readonly kind: 'line'; readonly bytes: Buffer }
  | {
      readonly kind: 'oversized';
      /** The first bytes of the refused line (at most `headBytes`): enough to read a request id from its start. */
      readonly head: Buffer;
    };

/** How much of a refused line is kept to look for its id (the id of a JSON-RPC request comes near its start). */
export const OVERSIZED_HEAD_BYTES = 4_096;

/**
 * Cuts a byte stream into newline-delimited frames (the MCP stdio transport: one JSON-RPC message per line).
 * A line longer than `maxLineBytes` is refused as soon as it crosses the limit: its head is reported once and the
 * rest is discarded as it arrives until the next `\n`, so an endless line never holds more than the limit in memory.
 */
export class LineSplitter {
  readonly #maxLineBytes: number;
  #parts: Buffer[] = [];
  #size = 0;
  /** True while the bytes up to the next `\n` belong to a refused line. */
  #discarding = false;

  constructor(maxLineBytes: number) {
    if (!Number.isSafeInteger(maxLineBytes) || maxLineBytes < 1)
      throw new RangeError('LineSplitter: "maxLineBytes" must be a positive integer');
    this.#maxLineBytes = maxLineBytes;
  }

  /** Bytes held for the line not yet ended (never more than maxLineBytes). */
  get pendingBytes(): number {
    return this.#size;
  }

  push(chunk: Buffer): SplitItem[] {
    if (!Buffer.isBuffer(chunk)) throw new TypeError('LineSplitter.push: "chunk" must be a Buffer');
    const items: SplitItem[] = [];
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      if (this.#discarding) {
        if (newline !== -1) this.#discarding = false;
      } else if (this.#size + (end - start) > this.#maxLineBytes) {
        items.push({ kind: 'oversized', head: this.#head(chunk.subarray(start, end)) });
        this.#parts = [];
        this.#size = 0;
        this.#discarding = newline === -1;
      } else if (newline === -1) {
        // Copy: the caller's chunk may be reused, and a subarray would pin the whole chunk.
        this.#parts.push(Buffer.from(chunk.subarray(start, end)));
        this.#size += end - start;
      } else {
        const tail = chunk.subarray(start, end);
        const bytes = this.#parts.length === 0 ? Buffer.from(tail) : Buffer.concat([...this.#parts, tail]);
        this.#parts = [];
        this.#size = 0;
        items.push({ kind: 'line', bytes });
      }
      start = end + 1;
    }
    return items;
  }

  #head(tail: Buffer): Buffer {
    const held =
      this.#parts.length === 0 ? tail : Buffer.concat([...this.#parts, tail], Math.min(this.#size + tail.length, OVERSIZED_HEAD_BYTES));
    return Buffer.from(held.subarray(0, OVERSIZED_HEAD_BYTES));
  }
}
