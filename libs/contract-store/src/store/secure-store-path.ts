import { closeSync, constants, fsyncSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { fsyncDirectory, ownerOnlyProblem, ownerOnlyRefusal } from '@pfsense-mcp/foundation';
import type { OwnerOnlyProblem } from '@pfsense-mcp/foundation';
import { StoreFileError } from './contract-store-error.js';

// Files and directories of the store must belong to the running user (docs/DESIGN.md §3 store rules). The
// rules are foundation's ownerOnlyProblem; the store keeps its own errors and the permission-bits-only mask.
const STORE_DIRECTORY_MESSAGES: Readonly<Record<OwnerOnlyProblem, string>> = Object.freeze({
  NOT_FOUND: 'store directory does not exist',
  SYMLINK: 'store directory is a symlink',
  NOT_DIRECTORY: 'store directory is not a directory',
  NOT_REGULAR_FILE: 'store directory is not a directory',
  NO_OWNER_MODEL: 'cannot determine the process owner',
  WRONG_OWNER: 'store directory is not owned by the process user',
  UNSAFE_MODE: 'store directory mode must be 0700',
});
const STORE_FILE_MESSAGES: Readonly<Record<OwnerOnlyProblem, string>> = Object.freeze({
  NOT_FOUND: 'store file does not exist',
  SYMLINK: 'store file is a symlink',
  NOT_DIRECTORY: 'store file is not a regular file',
  NOT_REGULAR_FILE: 'store file is not a regular file',
  NO_OWNER_MODEL: 'cannot determine the process owner',
  WRONG_OWNER: 'store file is not owned by the process user',
  UNSAFE_MODE: 'store file mode must be 0600',
});

function storeFileError(problem: OwnerOnlyProblem, path: string, messages: Readonly<Record<OwnerOnlyProblem, string>>): StoreFileError {
  // No POSIX ownership model (Windows): fail closed rather than skip the owner check.
  const { code, subject } = ownerOnlyRefusal(problem, path);
  return new StoreFileError(code, subject, messages[problem]);
}

/** lstat-based check of the store directory: exists, not a symlink, a directory, owned by us, mode exactly 0700. */
export function assertSecureDirectory(path: string): void {
  const problem = ownerOnlyProblem(path, { kind: 'directory', modeBits: 0o777 });
  if (problem !== null) throw storeFileError(problem, path, STORE_DIRECTORY_MESSAGES);
}

/**
 * lstat-based check of one store file. Returns false when the file does not exist (and `mustExist` is
 * false). Mode must be exactly 0600: a group- or world-readable store file is refused, not repaired.
 */
export function assertSecureFile(path: string, mustExist: boolean): boolean {
  const problem = ownerOnlyProblem(path, { kind: 'file', modeBits: 0o777 });
  if (problem === 'NOT_FOUND' && !mustExist) return false;
  if (problem !== null) throw storeFileError(problem, path, STORE_FILE_MESSAGES);
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
