// The one owner of the exchange folder's paths (docs/DESIGN.md §6): `admin init --exchange` creates it, the write
// runtime opens it, the signer finds requests/ and answers/ by the same two names.
import { lstatSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { EXCHANGE_ANSWERS_FOLDER, EXCHANGE_REQUESTS_FOLDER } from '@pfsense-mcp/authorization';
import { ExchangeError } from './exchange-error.js';

/** The environment variable naming the exchange folder (optional). */
export const WRITE_EXCHANGE_DIR_VARIABLE = 'PFSENSE_WRITE_EXCHANGE_DIR';

/** The exchange folder: the server writes requests/, the operator's `approve` writes answers/. */
export interface ExchangeLayout {
  readonly dir: string;
  readonly requestsDir: string;
  readonly answersDir: string;
}

export function exchangeLayout(dir: string): ExchangeLayout {
  if (!isAbsolute(dir)) throw new ExchangeError('NOT_ABSOLUTE', `${WRITE_EXCHANGE_DIR_VARIABLE} must be an absolute path`);
  const root = resolve(dir);
  return Object.freeze({ dir: root, requestsDir: join(root, EXCHANGE_REQUESTS_FOLDER), answersDir: join(root, EXCHANGE_ANSWERS_FOLDER) });
}

/** A real directory (never a symlink); owner and mode are reported by `admin status`, not required (sync tools set their own). */
function assertDirectory(path: string, label: string): void {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    throw new ExchangeError('MISSING', `${label} does not exist (create it with \`pfsense-mcp admin init --dir DIR --exchange PATH\`)`);
  }
  if (st.isSymbolicLink()) throw new ExchangeError('SYMLINK', `${label} must not be a symbolic link`);
  if (!st.isDirectory()) throw new ExchangeError('NOT_DIRECTORY', `${label} must be a directory`);
}

/** The exchange folder and its requests/ and answers/ are real directories. Throws ExchangeError. */
export function assertExchangeFolder(layout: ExchangeLayout): void {
  assertDirectory(layout.dir, WRITE_EXCHANGE_DIR_VARIABLE);
  assertDirectory(layout.requestsDir, `${WRITE_EXCHANGE_DIR_VARIABLE}/requests`);
  assertDirectory(layout.answersDir, `${WRITE_EXCHANGE_DIR_VARIABLE}/answers`);
}
