import { randomBytes } from 'node:crypto';
import { closeSync, constants, fchmodSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fsyncDirectory } from './fsync-directory.js';

/**
 * Replaces `path` with `content` so a reader sees the old file or the new one, never a torn one: an
 * exclusive, no-follow 0600 temp file beside it (chmod'ed too, so a umask cannot narrow it), written and
 * fsynced, renamed over it, the directory fsynced. On any failure before the rename the temp file is removed
 * and the error rethrown as is; a failure of the final directory fsync leaves the new file in place.
 */
export function replaceFileAtomically(path: string, content: string): void {
  if (typeof path !== 'string' || path.length === 0) throw new TypeError('replaceFileAtomically: "path" must be a non-empty string');
  if (typeof content !== 'string') throw new TypeError('replaceFileAtomically: "content" must be a string');
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW, 0o600);
  let renamed = false;
  try {
    fchmodSync(fd, 0o600);
    const bytes = Buffer.from(content, 'utf8');
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temp, path);
    renamed = true;
    fsyncDirectory(dir);
  } finally {
    if (!renamed) {
      try {
        closeSync(fd);
      } catch {
        // already closed
      }
      try {
        unlinkSync(temp);
      } catch {
        // never created or already gone
      }
    }
  }
}
