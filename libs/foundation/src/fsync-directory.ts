import { closeSync, constants, fsyncSync, openSync } from 'node:fs';

/**
 * fsync a directory, so that a create, rename or unlink in it is durable (POSIX: the entry lives in the
 * directory, not in the file). Throws what `open`/`fsync` throw; a caller for whom durability of the entry is
 * best effort catches it.
 */
export function fsyncDirectory(path: string): void {
  if (typeof path !== 'string' || path.length === 0) throw new TypeError('"path" must be a non-empty string');
  const fd = openSync(path, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
