import { closeSync, constants, lstatSync, openSync, readSync } from 'node:fs';
import { opensWithPrivateKeyLabel } from '@pfsense-mcp/crypto';

/**
 * Whether `path` is a regular file (never followed) that opens with a private key file's label line — only the
 * label is read, never a key (docs/DESIGN.md §10). One rule for `admin trust` (a key beside a .pub) and the exchange
 * folder (a key anywhere in it).
 */
export function opensAsPrivateKey(path: string): boolean {
  let fd: number;
  try {
    if (!lstatSync(path).isFile()) return false;
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return false; // unreadable by this account: it cannot be this account's key either
  }
  try {
    const one = Buffer.alloc(1);
    return opensWithPrivateKeyLabel((offset) => (readSync(fd, one, 0, 1, offset) === 1 ? (one[0] as number) : null));
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}
