import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import { hexToBytes } from '@pfsense-mcp/canonical';
import { isValidEd25519PublicKey, keyIdOf } from '@pfsense-mcp/crypto';
import { AdminError } from './admin-error.js';

const HEX_KEY = /^[0-9a-f]{64}$/;
const KEY_FILE = /^([0-9a-f]{64})\n?$/;
const MAX_KEY_FILE_BYTES = 256;

/**
 * Reads a public key file or bundle: a regular file (no symlink) of the current user that nobody else can write (a
 * public key is no secret, but a swapped one is a forged authority), of at most `maxBytes`, as latin1 text.
 */
export function readPublicFileText(path: string, flag: string, maxBytes: number): string {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    throw new AdminError('BAD_PUBLIC_KEY', `${flag}: must be 64 hex characters or an existing .pub file`);
  }
  if (st.isSymbolicLink()) throw new AdminError('FILE_SYMLINK', `${flag}: the file must not be a symbolic link`);
  if (!st.isFile()) throw new AdminError('FILE_NOT_REGULAR', `${flag}: must be a regular file`);
  if (typeof process.getuid === 'function' && st.uid !== process.getuid())
    throw new AdminError('FILE_WRONG_OWNER', `${flag}: the file must be owned by the current user`);
  if ((st.mode & 0o022) !== 0) throw new AdminError('FILE_UNSAFE_MODE', `${flag}: the file must not be writable by group or others`);
  if (st.size > maxBytes) throw new AdminError('BAD_PUBLIC_KEY', `${flag}: the file is too large for what it must hold`);
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const fst = fstatSync(fd);
    if (fst.ino !== st.ino || fst.dev !== st.dev) throw new AdminError('FILE_CHANGED', `${flag}: the file changed while it was opened`);
    const buf = Buffer.alloc(maxBytes + 1);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString('latin1');
  } finally {
    closeSync(fd);
  }
}

/** A .pub file as `keygen` writes it (ROLE-<id>.pub): 64 lowercase hex and one optional newline. */
function readKeyFile(path: string, flag: string): string {
  const m = KEY_FILE.exec(readPublicFileText(path, flag, MAX_KEY_FILE_BYTES));
  if (m?.[1] === undefined) throw new AdminError('BAD_PUBLIC_KEY', `${flag}: the file must hold 64 lowercase hex characters`);
  return m[1];
}

/** Whether --public-key was given as 64 lowercase hex (not a file). */
export function isPublicKeyHex(value: string): boolean {
  return HEX_KEY.test(value);
}

/** --public-key KEY: 64 lowercase hex, or the signer's .pub file; a valid Ed25519 point. */
export function readPublicKeyArgument(value: string, flag: string): { readonly publicKey: string; readonly keyId: string } {
  const hex = isPublicKeyHex(value) ? value : readKeyFile(value, flag);
  const bytes = hexToBytes(hex);
  if (!isValidEd25519PublicKey(bytes)) throw new AdminError('BAD_PUBLIC_KEY', `${flag}: not a valid Ed25519 public key`);
  return Object.freeze({ publicKey: hex, keyId: keyIdOf(bytes) });
}
