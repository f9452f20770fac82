import { lstatSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { EXCHANGE_ANSWERS_FOLDER, EXCHANGE_REQUESTS_FOLDER } from '@pfsense-mcp/authorization';
import { ExitCode } from './exit-code.js';
import { SignerError } from './signer-error.js';

function isDirectory(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * The exchange folder `path` lies in (itself or the nearest ancestor holding both requests/ and answers/), or null.
 * The folder is shared with the server host and whatever syncs it: an operator key inside it is no longer only on
 * this machine (docs/DESIGN.md §10).
 */
export function exchangeRootOf(path: string): string | null {
  let dir = realOrResolved(path);
  for (;;) {
    if (isDirectory(join(dir, EXCHANGE_REQUESTS_FOLDER)) && isDirectory(join(dir, EXCHANGE_ANSWERS_FOLDER))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** Refuses a key path (`flag`) inside an exchange folder: operator keys never go where the folder is shared. */
export function refuseKeysInExchange(path: string, flag: string): void {
  if (exchangeRootOf(path) !== null) {
    throw new SignerError(
      ExitCode.FILE_REFUSED,
      'KEYS_IN_EXCHANGE_FOLDER',
      `${flag}: lies inside an exchange folder (requests/ and answers/), which is shared with the server host; keep operator keys in a folder of their own`,
    );
  }
}
