import { readdirSync, realpathSync } from 'node:fs';
import { basename, dirname, extname, join, resolve, sep } from 'node:path';
import { opensAsPrivateKey } from '../runtime/write-directory/opens-as-private-key.js';
import type { WriteDirectoryLayout } from '../runtime/write-directory/write-directory-layout.js';
import { AdminError } from './admin-error.js';

/** Entries of the .pub's folder looked at for a private key file; a folder larger than this is refused, not half-checked. */
const MAX_FOLDER_ENTRIES = 4096;

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function isInside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : `${folder}${sep}`);
}

/**
 * `admin trust --public-key FILE` pins a key the operator made on another machine (docs/DESIGN.md §10). A .pub
 * whose private key lies beside it — `<base>.key` by name, or any file there opening with a private key file's
 * label (only the label is read, never a key) — means the operator key is on the server host, where whoever
 * runs as the server's account (an assistant with shell tools included) could sign with it; and a .pub inside
 * the write directory, its inbox or outbox, or the anchor directory is a file that account could have put there.
 * Both are refused; there is no override.
 */
export function assertPublicKeyFromElsewhere(file: string, layout: WriteDirectoryLayout, flag: string): void {
  const path = realOrResolved(file);
  for (const folder of [layout.dir, layout.anchorDir, layout.inboxDir, layout.outboxDir]) {
    if (isInside(path, realOrResolved(folder))) {
      throw new AdminError(
        'PUBLIC_KEY_IN_WRITE_DIRECTORY',
        `${flag}: the file lies inside the write, anchor, inbox or outbox directory; copy the operator's .pub from the signer's machine to another folder`,
      );
    }
  }
  const folder = dirname(path);
  const base = basename(path, extname(path));
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    throw new AdminError(
      'PUBLIC_KEY_FOLDER_UNREADABLE',
      `${flag}: the folder of the file cannot be listed to check it holds no private key`,
    );
  }
  if (names.length > MAX_FOLDER_ENTRIES) {
    throw new AdminError(
      'PUBLIC_KEY_FOLDER_TOO_LARGE',
      `${flag}: the folder of the file has too many entries to check; copy the .pub to its own folder`,
    );
  }
  const beside = names.includes(`${base}.key`) || names.some((n) => join(folder, n) !== path && opensAsPrivateKey(join(folder, n)));
  if (beside) {
    throw new AdminError(
      'PRIVATE_KEY_BESIDE_PUBLIC_KEY',
      `${flag}: a private key file lies beside the .pub — the operator's private key must stay on the signer's machine, never on the server host; move it off this host and copy only the .pub here`,
    );
  }
}
