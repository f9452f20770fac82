import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import { ArtifactFormatError, MAX_ARTIFACT_BYTES, parseArtifact } from '@pfsense-mcp/authorization';
import type { Artifact } from '@pfsense-mcp/authorization';
import { AdminError } from './admin-error.js';

/**
 * Reads the FILE an operator hands over: a regular file (no symlink) of the current user, at most the artifact
 * size limit, parsed strictly (canonical JSON, known kind and version). Its mode is not judged here — it is
 * copied from another machine; the copy `inbox add` installs is the one that must be owner-only.
 */
export function readArtifactArgument(path: string, what: string): Artifact {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    throw new AdminError('FILE_NOT_FOUND', `${what}: does not exist`);
  }
  if (st.isSymbolicLink()) throw new AdminError('FILE_SYMLINK', `${what}: must not be a symbolic link`);
  if (!st.isFile()) throw new AdminError('FILE_NOT_REGULAR', `${what}: must be a regular file`);
  if (typeof process.getuid === 'function' && st.uid !== process.getuid())
    throw new AdminError('FILE_WRONG_OWNER', `${what}: must be owned by the current user`);
  if (st.size > MAX_ARTIFACT_BYTES) throw new AdminError('FILE_TOO_LARGE', `${what}: must be at most ${MAX_ARTIFACT_BYTES} bytes`);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    throw new AdminError('FILE_UNREADABLE', `${what}: cannot be opened`);
  }
  let bytes: Buffer;
  try {
    const fst = fstatSync(fd);
    if (fst.ino !== st.ino || fst.dev !== st.dev) throw new AdminError('FILE_CHANGED', `${what}: changed while it was opened`);
    const buf = Buffer.alloc(MAX_ARTIFACT_BYTES + 1);
    let n = 0;
    for (;;) {
      const r = readSync(fd, buf, n, buf.length - n, null);
      if (r === 0) break;
      n += r;
      if (n > MAX_ARTIFACT_BYTES) throw new AdminError('FILE_TOO_LARGE', `${what}: must be at most ${MAX_ARTIFACT_BYTES} bytes`);
    }
    bytes = buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
  try {
    return parseArtifact(bytes);
  } catch (error) {
    if (error instanceof ArtifactFormatError)
      throw new AdminError(`ARTIFACT_${error.code}`, `${what}: is not a well-formed artifact (${error.code})`);
    throw error;
  }
}
