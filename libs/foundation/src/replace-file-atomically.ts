import { randomBytes } from 'node:crypto';
import { closeSync, constants, fchmodSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fsyncDirectory } from '@pfsense-mcp/foundation';

/**
 * Replaces `path` with `content` so a reader sees the old file or the new one, never a torn one: an
 * exclusive, no-follow 0600 temp file beside it, written and fsynced, renamed over it, the directory fsynced.
 */
export function replaceFileAtomically(path: string, content: string): void {
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
