import { closeSync, constants, fchmodSync, fstatSync, fsyncSync, lstatSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { basename, dirname } from 'node:path';
import { fsyncDirectory } from '@pfsense-mcp/foundation';
import { KeyFileError } from './key-file-error.js';

/** Default size cap of a secret file; key files are under 100 bytes. */
export const DEFAULT_SECRET_FILE_MAX_BYTES = 4096;

function errnoOf(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'UNKNOWN';
}

function assertPath(fn: string, path: unknown): string {
  if (typeof path !== 'string' || path.length === 0 || path.includes('\0')) {
    throw new TypeError(`${fn}: "path" must be a non-empty string without NUL`);
  }
  return path;
}

function currentUid(): number {
  // process.getuid exists on POSIX only; key files are a POSIX feature of this product.
  if (typeof process.getuid !== 'function') throw new Error('key files need a POSIX platform (process.getuid)');
  return process.getuid();
}

/** The ownership, type and permission rules shared by every secret file (docs/DESIGN.md §2, crypto row). */
function checkStats(st: Stats, file: string, maxBytes: number): void {
  if (st.isSymbolicLink()) throw new KeyFileError('SYMLINK', file, 'must not be a symbolic link');
  if (!st.isFile()) throw new KeyFileError('NOT_REGULAR_FILE', file, 'must be a regular file');
  if (st.uid !== currentUid()) throw new KeyFileError('WRONG_OWNER', file, 'must be owned by the current user');
  const perm = st.mode & 0o7777;
  // Exactly 0600 or 0400: any group/other bit, execute bit or setuid/setgid/sticky bit is refused.
  if (perm !== 0o600 && perm !== 0o400) throw new KeyFileError('UNSAFE_MODE', file, 'mode must be 0600 or 0400');
  if (st.size > maxBytes) throw new KeyFileError('TOO_LARGE', file, `must be at most ${maxBytes} bytes`);
  if (st.size === 0) throw new KeyFileError('BAD_FORMAT', file, 'must not be empty');
}

/**
 * Read a secret file: lstat (not a symlink, a regular file), then open with O_NOFOLLOW|O_NONBLOCK and re-check
 * the opened descriptor (same inode as lstat saw, owner == current uid, mode 0600/0400, size cap), then read.
 */
export function readSecretFile(path: string, opts?: { maxBytes?: number }): Buffer {
  assertPath('readSecretFile', path);
  const maxBytes = opts?.maxBytes ?? DEFAULT_SECRET_FILE_MAX_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) {
    throw new RangeError('readSecretFile: "opts.maxBytes" must be a positive safe integer');
  }
  const file = basename(path);
  let pre: Stats;
  try {
    pre = lstatSync(path);
  } catch (e) {
    if (errnoOf(e) === 'ENOENT') throw new KeyFileError('NOT_FOUND', file, 'does not exist');
    throw new KeyFileError('IO_ERROR', file, 'cannot be inspected', errnoOf(e));
  }
  checkStats(pre, file, maxBytes);

  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    const errno = errnoOf(e);
    if (errno === 'ELOOP') throw new KeyFileError('SYMLINK', file, 'must not be a symbolic link');
    if (errno === 'ENOENT') throw new KeyFileError('CHANGED', file, 'changed while being opened');
    throw new KeyFileError('IO_ERROR', file, 'cannot be opened', errno);
  }
  try {
    const st = fstatSync(fd);
    if (st.ino !== pre.ino || st.dev !== pre.dev) throw new KeyFileError('CHANGED', file, 'changed while being opened');
    checkStats(st, file, maxBytes);
    // Read up to maxBytes + 1 so a file that grew after fstat is still caught.
    const buf = Buffer.alloc(maxBytes + 1);
    let n = 0;
    for (;;) {
      const r = readSync(fd, buf, n, buf.length - n, null);
      if (r === 0) break;
      n += r;
      if (n > maxBytes) {
        buf.fill(0);
        throw new KeyFileError('TOO_LARGE', file, `must be at most ${maxBytes} bytes`);
      }
    }
    const out = Buffer.from(buf.subarray(0, n));
    buf.fill(0);
    return out;
  } catch (e) {
    if (e instanceof KeyFileError) throw e;
    throw new KeyFileError('IO_ERROR', file, 'cannot be read', errnoOf(e));
  } finally {
    closeSync(fd);
  }
}

/**
 * Create a secret file that did not exist (O_CREAT|O_EXCL|O_NOFOLLOW — never overwrites, never follows a
 * symlink), mode 0600 set at open and again with fchmod (umask cannot widen or narrow it), content written
 * and fsynced; the directory entry is fsynced too. On a failed write the partial file is removed.
 */
export function writeSecretFile(path: string, content: string | Uint8Array): void {
  assertPath('writeSecretFile', path);
  if (typeof content !== 'string' && !(content instanceof Uint8Array)) {
    throw new TypeError('writeSecretFile: "content" must be a string or Uint8Array');
  }
  const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
  if (data.length === 0) throw new RangeError('writeSecretFile: "content" must not be empty');
  const file = basename(path);
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  } catch (e) {
    data.fill(0);
    const errno = errnoOf(e);
    if (errno === 'EEXIST') throw new KeyFileError('EXISTS', file, 'already exists; refusing to overwrite');
    if (errno === 'ENOENT') throw new KeyFileError('NOT_FOUND', file, 'directory does not exist');
    throw new KeyFileError('IO_ERROR', file, 'cannot be created', errno);
  }
  let ok = false;
  try {
    fchmodSync(fd, 0o600);
    let off = 0;
    while (off < data.length) off += writeSync(fd, data, off, data.length - off);
    fsyncSync(fd);
    ok = true;
  } catch (e) {
    throw new KeyFileError('IO_ERROR', file, 'cannot be written', errnoOf(e));
  } finally {
    data.fill(0);
    closeSync(fd);
    if (!ok) {
      try {
        unlinkSync(path);
      } catch {
        // Best effort: the write already failed and is reported.
      }
    }
  }
  fsyncDirectoryBestEffort(dirname(path));
}

function fsyncDirectoryBestEffort(dir: string): void {
  try {
    fsyncDirectory(dir);
  } catch {
    // Durability of the directory entry is best effort (some filesystems refuse directory fsync).
  }
}
