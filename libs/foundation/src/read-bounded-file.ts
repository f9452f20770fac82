import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/**
 * Reads a small file as UTF-8 without following a symlink (O_NOFOLLOW): null when it is larger than
 * `maxBytes` (nothing is read then). Throws what open/read throw (ENOENT, ELOOP for a symlink, …): the
 * caller has already decided what absence means.
 */
export function readBoundedFile(path: string, maxBytes: number): string | null {
  if (typeof path !== 'string' || path.length === 0) throw new TypeError('readBoundedFile: "path" must be a non-empty string');
  if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) throw new TypeError('readBoundedFile: "maxBytes" must be a positive integer');
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const size = fstatSync(fd).size;
    if (size > maxBytes) return null;
    const buf = Buffer.alloc(size);
    let off = 0;
    while (off < size) {
      const n = readSync(fd, buf, off, size - off, off);
      if (n === 0) break;
      off += n;
    }
    return buf.subarray(0, off).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
