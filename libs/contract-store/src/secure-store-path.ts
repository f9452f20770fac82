import { closeSync, constants, fsyncSync, lstatSync, openSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { dirname } from 'node:path';
import { StoreFileError } from './contract-store-error.js';

/** Files and directories of the store must belong to the running user (docs/DESIGN.md §3 store rules). */
function processUid(): number {
  if (typeof process.getuid !== 'function') {
    // No POSIX ownership model (Windows): fail closed rather than skip the owner check.
    throw new StoreFileError('WRONG_OWNER', '(platform)', 'cannot determine the process owner');
  }
  return process.getuid();
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** lstat-based check of the store directory: exists, not a symlink, a directory, owned by us, mode exactly 0700. */
export function assertSecureDirectory(path: string): void {
  const st = lstatOrNull(path);
  if (st === null) throw new StoreFileError('NOT_FOUND', path, 'store directory does not exist');
  if (st.isSymbolicLink()) throw new StoreFileError('SYMLINK', path, 'store directory is a symlink');
  if (!st.isDirectory()) throw new StoreFileError('NOT_DIRECTORY', path, 'store directory is not a directory');
  if (st.uid !== processUid()) throw new StoreFileError('WRONG_OWNER', path, 'store directory is not owned by the process user');
  if ((st.mode & 0o777) !== 0o700) throw new StoreFileError('UNSAFE_MODE', path, 'store directory mode must be 0700');
}

/**
 * lstat-based check of one store file. Returns false when the file does not exist (and `mustExist` is
 * false). Mode must be exactly 0600: a group- or world-readable store file is refused, not repaired.
 */
export function assertSecureFile(path: string, mustExist: boolean): boolean {
  const st = lstatOrNull(path);
  if (st === null) {
    if (mustExist) throw new StoreFileError('NOT_FOUND', path, 'store file does not exist');
    return false;
  }
  if (st.isSymbolicLink()) throw new StoreFileError('SYMLINK', path, 'store file is a symlink');
  if (!st.isFile()) throw new StoreFileError('NOT_REGULAR_FILE', path, 'store file is not a regular file');
  if (st.uid !== processUid()) throw new StoreFileError('WRONG_OWNER', path, 'store file is not owned by the process user');
  if ((st.mode & 0o777) !== 0o600) throw new StoreFileError('UNSAFE_MODE', path, 'store file mode must be 0600');
  return true;
}

/** Exclusive, no-follow creation of an empty 0600 file (then fsync of the file and its directory). */
export function createSecureFile(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new StoreFileError('EXISTS', path, 'store file already exists');
    throw error;
  }
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  fsyncDirectory(dirname(path));
}

/** fsync a directory so a create or rename in it is durable. */
export function fsyncDirectory(path: string): void {
  const fd = openSync(path, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
