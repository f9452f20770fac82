import { RegularFileError, readRegularFileChunks } from './read-regular-file.js';

/**
 * Reads a small file as UTF-8 without following a symlink (O_NOFOLLOW): null when it is larger than
 * `maxBytes`. The reading itself is readRegularFileChunks' (a regular file only, counted while read), so a FIFO
 * or a device is a RegularFileError, never a wait or an endless read. Throws what open/read throw (ENOENT, ELOOP
 * for a symlink, …): the caller has already decided what absence means.
 */
export function readBoundedFile(path: string, maxBytes: number): string | null {
  if (typeof path !== 'string' || path.length === 0) throw new TypeError('readBoundedFile: "path" must be a non-empty string');
  if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) throw new TypeError('readBoundedFile: "maxBytes" must be a positive integer');
  const chunks: Uint8Array[] = [];
  try {
    readRegularFileChunks(path, maxBytes, (c) => chunks.push(c), maxBytes + 1, { noFollow: true });
  } catch (e) {
    if (e instanceof RegularFileError && e.problem === 'TOO_LARGE') return null;
    throw e;
  }
  return Buffer.concat(chunks).toString('utf8');
}
