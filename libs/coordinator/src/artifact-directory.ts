import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import type { BigIntStats, Stats } from 'node:fs';
import { join } from 'node:path';
import { MAX_ARTIFACT_BYTES } from '@pfsense-mcp/authorization';
import { assertFunction, assertObject } from '@pfsense-mcp/foundation';
import { ArtifactFileError } from './artifact-file-error.js';

/** Artifact file names: lowercase, no path separators, no leading dot, ending in .json. */
const FILE_NAME = /^[a-z0-9][a-z0-9._-]{0,200}\.json$/;
function currentUid(): number {
  return typeof process.getuid === 'function' ? process.getuid() : -1;
}

/** Which entry an owner check is about (the test-only `ownerUid` seam may answer differently for each). */
export type ArtifactEntry = 'directory' | 'file';

export interface ArtifactDirectoryOptions {
  /**
   * TEST-ONLY seam: the uid an entry must be owned by (default: this process's uid). It lets the
   * wrong-owner refusal be tested without root (no chown); production code never passes it.
   */
  readonly ownerUid?: (entry: ArtifactEntry) => number;
}

function checkFileStats(st: Stats, fileName: string, expectedUid: number): void {
  if (st.isSymbolicLink()) throw new ArtifactFileError('SYMLINK', fileName, 'must not be a symbolic link');
  if (!st.isFile()) throw new ArtifactFileError('NOT_REGULAR_FILE', fileName, 'must be a regular file');
  if (st.uid !== expectedUid) throw new ArtifactFileError('WRONG_OWNER', fileName, 'must be owned by the server user');
  if ((st.mode & 0o077) !== 0)
    throw new ArtifactFileError('UNSAFE_MODE', fileName, 'must not be readable or writable by group or others (0600)');
  if (st.size > MAX_ARTIFACT_BYTES) throw new ArtifactFileError('TOO_LARGE', fileName, `must be at most ${MAX_ARTIFACT_BYTES} bytes`);
}

/**
 * One fixed artifact directory (the inbox or the outbox, docs/DESIGN.md §6): a real directory owned by the
 * server user with mode 0700, created on first use. Files are written by exclusive creation — a temp file
 * (0600, O_EXCL|O_NOFOLLOW, fsynced) hard-linked to its final name, so an existing file is never
 * overwritten and a reader never sees half a file — and read only when they are regular files (no
 * symlinks: lstat, then O_NOFOLLOW and fstat on the same inode), owned by the server user, without group
 * or other permission bits, and within the artifact size limit. Nothing here deletes an artifact.
 */
export class ArtifactDirectory {
  readonly path: string;
  readonly #ownerUid: (entry: ArtifactEntry) => number;

  private constructor(path: string, ownerUid: (entry: ArtifactEntry) => number) {
    this.path = path;
    this.#ownerUid = ownerUid;
    Object.freeze(this);
  }

  /** Opens (creating with 0700 if missing) and checks the directory; throws ArtifactFileError. */
  static open(path: string, options: ArtifactDirectoryOptions = {}): ArtifactDirectory {
    if (typeof path !== 'string' || path.length === 0 || path.includes('\0')) {
      throw new TypeError('ArtifactDirectory.open: "path" must be a non-empty string');
    }
    // Checked through copies: an assertion on `options` itself would narrow its optional-only type away.
    const given: unknown = options;
    assertObject(given, 'ArtifactDirectory.open: "options"');
    const ownerUid: unknown = options.ownerUid;
    if (ownerUid !== undefined) assertFunction(ownerUid, 'ArtifactDirectory.open: "options.ownerUid"', 'a function when given');
    try {
      lstatSync(path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new ArtifactFileError('IO', '', 'cannot be inspected');
      try {
        mkdirSync(path, { mode: 0o700 });
      } catch {
        throw new ArtifactFileError('IO', '', 'cannot be created');
      }
    }
    const dir = new ArtifactDirectory(path, options.ownerUid ?? currentUid);
    dir.check();
    return dir;
  }

  /** Re-checks the directory itself (it is re-checked before every scan and write). */
  check(): void {
    let st: Stats;
    try {
      st = lstatSync(this.path);
    } catch {
      throw new ArtifactFileError('IO', '', 'cannot be inspected');
    }
    if (st.isSymbolicLink()) throw new ArtifactFileError('SYMLINK', '', 'must not be a symbolic link');
    if (!st.isDirectory()) throw new ArtifactFileError('NOT_DIRECTORY', '', 'must be a directory');
    if (st.uid !== this.#ownerUid('directory')) throw new ArtifactFileError('WRONG_OWNER', '', 'must be owned by the server user');
    if ((st.mode & 0o777) !== 0o700) throw new ArtifactFileError('UNSAFE_MODE', '', 'must have mode 0700');
  }

  /**
   * Names of the candidate artifacts, sorted: every entry whose name ends in ".json" and does not start
   * with a dot, whatever its type, so that an unsafe or badly named *.json entry is refused by `read`
   * rather than skipped. Other names (dot-files such as our own temp files, notes, editor backups) are
   * not artifacts: ignored silently, never read and never deleted.
   */
  list(): readonly string[] {
    this.check();
    let names: string[];
    try {
      names = readdirSync(this.path);
    } catch {
      throw new ArtifactFileError('IO', '', 'cannot be listed');
    }
    // No bound on the count: leftovers are never deleted automatically, so they must not be able to stop
    // the write. Callers skip by name what cannot concern their operation, without opening it.
    return Object.freeze(names.filter((n) => !n.startsWith('.') && n.endsWith('.json')).sort());
  }

  /** Reads one artifact file's bytes after the safety checks; throws ArtifactFileError. */
  read(fileName: string): Uint8Array {
    if (typeof fileName !== 'string' || !FILE_NAME.test(fileName)) {
      throw new ArtifactFileError(
        'BAD_NAME',
        typeof fileName === 'string' && !fileName.includes('/') ? fileName : '',
        'must be a lowercase *.json name',
      );
    }
    const full = join(this.path, fileName);
    let st: Stats;
    try {
      st = lstatSync(full);
    } catch {
      throw new ArtifactFileError('IO', fileName, 'cannot be inspected');
    }
    checkFileStats(st, fileName, this.#ownerUid('file'));
    let fd: number;
    try {
      fd = openSync(full, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ELOOP') throw new ArtifactFileError('SYMLINK', fileName, 'must not be a symbolic link');
      throw new ArtifactFileError('IO', fileName, 'cannot be opened');
    }
    try {
      const fst = fstatSync(fd);
      // The same inode we checked: a swap between lstat and open is refused.
      if (fst.ino !== st.ino || fst.dev !== st.dev) throw new ArtifactFileError('IO', fileName, 'changed while it was opened');
      checkFileStats(fst, fileName, this.#ownerUid('file'));
      // Sized by the file (checked ≤ MAX_ARTIFACT_BYTES above), one byte more to notice growth: a scan of many
      // small files must not allocate the whole bound per file.
      const buffer = Buffer.allocUnsafe(fst.size + 1);
      let total = 0;
      while (total < buffer.length) {
        const n = readSync(fd, buffer, total, buffer.length - total, null);
        if (n === 0) break;
        total += n;
      }
      if (total > fst.size) throw new ArtifactFileError('IO', fileName, 'changed while it was read');
      return new Uint8Array(buffer.subarray(0, total));
    } finally {
      closeSync(fd);
    }
  }

  /**
   * The safety checks of `read` on the entry itself (lstat: regular file, owner, mode, size), without
   * opening it, and a key that changes whenever the file may have: device, inode, size, mtime and ctime (a
   * chmod or a replaced file changes ctime or the inode). Throws ArtifactFileError like `read`.
   */
  statKey(fileName: string): string {
    if (typeof fileName !== 'string' || !FILE_NAME.test(fileName)) {
      throw new ArtifactFileError(
        'BAD_NAME',
        typeof fileName === 'string' && !fileName.includes('/') ? fileName : '',
        'must be a lowercase *.json name',
      );
    }
    let st: Stats;
    let ns: BigIntStats;
    try {
      st = lstatSync(join(this.path, fileName));
      // Nanosecond times for the key: a rewrite within the same millisecond still changes it.
      ns = lstatSync(join(this.path, fileName), { bigint: true });
    } catch {
      throw new ArtifactFileError('IO', fileName, 'cannot be inspected');
    }
    checkFileStats(st, fileName, this.#ownerUid('file'));
    return `${ns.dev}:${ns.ino}:${ns.size}:${ns.mtimeNs}:${ns.ctimeNs}:${ns.mode}:${ns.uid}`;
  }

  /** True when a file of this name exists (of any type); no content is read. */
  has(fileName: string): boolean {
    try {
      lstatSync(join(this.path, fileName));
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Writes a new artifact by exclusive creation: temp file (0600) → fsync → link to the final name (which
   * fails on an existing name: EXISTS, nothing overwritten) → unlink temp → fsync the directory.
   */
  write(fileName: string, text: string): void {
    if (typeof fileName !== 'string' || !FILE_NAME.test(fileName)) {
      throw new ArtifactFileError('BAD_NAME', '', 'must be a lowercase *.json name');
    }
    if (typeof text !== 'string') throw new TypeError('ArtifactDirectory.write: "text" must be a string');
    const bytes = Buffer.from(text, 'utf8');
    if (bytes.length > MAX_ARTIFACT_BYTES)
      throw new ArtifactFileError('TOO_LARGE', fileName, `must be at most ${MAX_ARTIFACT_BYTES} bytes`);
    this.check();
    const temp = join(this.path, `.tmp-${randomBytes(12).toString('hex')}`);
    let fd: number;
    try {
      fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    } catch {
      throw new ArtifactFileError('IO', fileName, 'temp file cannot be created');
    }
    try {
      try {
        let off = 0;
        while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      try {
        linkSync(temp, join(this.path, fileName));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EEXIST')
          throw new ArtifactFileError('EXISTS', fileName, 'already exists (never overwritten)');
        throw new ArtifactFileError('IO', fileName, 'cannot be linked into place');
      }
    } finally {
      try {
        unlinkSync(temp);
      } catch {
        // The temp name is a dot-file: never a candidate artifact; left for the operator if unlink failed.
      }
    }
    try {
      const dfd = openSync(this.path, constants.O_RDONLY);
      try {
        fsyncSync(dfd);
      } finally {
        closeSync(dfd);
      }
    } catch {
      // Best effort: the link is already in place; a lost directory entry on power loss means a re-request.
    }
  }
}
