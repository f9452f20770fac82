import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { CodedError } from './coded-error.js';

/** Why a file was not read: not a regular file (a device, FIFO, socket or directory), or larger than the bound. */
export type RegularFileProblem = 'NOT_REGULAR_FILE' | 'TOO_LARGE';

/** A file refused by readRegularFileChunks; the message names the rule, never the path or content. */
export class RegularFileError extends CodedError<RegularFileProblem> {
  override readonly name = 'RegularFileError';
  readonly problem: RegularFileProblem;

  constructor(problem: RegularFileProblem) {
    super(problem, problem === 'NOT_REGULAR_FILE' ? 'not a regular file' : 'larger than the bound');
    this.problem = problem;
  }
}

const DEFAULT_CHUNK_BYTES = 1024 * 1024;

/**
 * Reads `path` through one open file descriptor, handing `onChunk` successive pieces of at most `chunkBytes`: only a
 * regular file (checked with fstat on the opened descriptor, which O_NONBLOCK opened without waiting on a FIFO) of at
 * most `maxBytes`, counted again while reading (a file that grows is cut off there). So /dev/zero, a FIFO or a
 * file of many gigabytes is refused, never read without end. `noFollow` refuses a symlink at open (ELOOP).
 * Throws RegularFileError, or what open/read throw.
 */
export function readRegularFileChunks(
  path: string,
  maxBytes: number,
  onChunk: (chunk: Uint8Array) => void,
  chunkBytes = DEFAULT_CHUNK_BYTES,
  options: { readonly noFollow?: boolean } = {},
): void {
  if (typeof path !== 'string' || path.length === 0) throw new TypeError('readRegularFileChunks: "path" must be a non-empty string');
  if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) throw new TypeError('readRegularFileChunks: "maxBytes" must be a positive integer');
  if (!Number.isSafeInteger(chunkBytes) || chunkBytes <= 0)
    throw new TypeError('readRegularFileChunks: "chunkBytes" must be a positive integer');
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | (options.noFollow === true ? constants.O_NOFOLLOW : 0));
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new RegularFileError('NOT_REGULAR_FILE');
    if (st.size > maxBytes) throw new RegularFileError('TOO_LARGE');
    const buffer = Buffer.allocUnsafe(Math.min(chunkBytes, maxBytes + 1));
    let total = 0;
    for (;;) {
      const n = readSync(fd, buffer, 0, buffer.length, null);
      if (n === 0) return;
      total += n;
      if (total > maxBytes) throw new RegularFileError('TOO_LARGE');
      onChunk(new Uint8Array(buffer.subarray(0, n)));
    }
  } finally {
    closeSync(fd);
  }
}

/** The whole of a regular file of at most `maxBytes` (readRegularFileChunks' rules), as bytes. */
export function readRegularFile(path: string, maxBytes: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  readRegularFileChunks(path, maxBytes, (c) => chunks.push(c));
  return new Uint8Array(Buffer.concat(chunks));
}
