import { lstatSync } from 'node:fs';
import { ExitCode } from './exit-code.js';
import { SignerError } from './signer-error.js';

/**
 * The directory output goes to must exist, be a real directory (not a symlink), be owned by the current
 * user, and not be writable by group or others (so nobody else can plant or swap files in it). For keys,
 * `ownerOnly` also refuses any group/other access (0700).
 */
export function assertSafeOutputDirectory(dir: string, ownerOnly: boolean): void {
  let st;
  try {
    st = lstatSync(dir);
  } catch {
    throw new SignerError(ExitCode.FILE_REFUSED, 'OUT_DIR_MISSING', '--out: directory does not exist');
  }
  if (st.isSymbolicLink()) throw new SignerError(ExitCode.FILE_REFUSED, 'OUT_DIR_SYMLINK', '--out: must not be a symbolic link');
  if (!st.isDirectory()) throw new SignerError(ExitCode.FILE_REFUSED, 'OUT_DIR_NOT_DIRECTORY', '--out: must be a directory');
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) {
    throw new SignerError(ExitCode.FILE_REFUSED, 'OUT_DIR_WRONG_OWNER', '--out: must be owned by the current user');
  }
  const mask = ownerOnly ? 0o077 : 0o022;
  if ((st.mode & mask) !== 0) {
    throw new SignerError(
      ExitCode.FILE_REFUSED,
      'OUT_DIR_UNSAFE_MODE',
      ownerOnly ? '--out: key directory must be owner-only (e.g. 0700)' : '--out: must not be writable by group or others',
    );
  }
}
