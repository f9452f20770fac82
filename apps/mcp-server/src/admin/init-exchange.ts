// `admin init --exchange PATH` (docs/DESIGN.md §6), or with --appliance the entry's write_exchange_dir: the exchange
// folder the operator shares with the signing machine — requests/ (the server writes) and answers/ (the signer
// writes). Owner-only where this account creates it; a folder that exists (a synced one) is adopted as it is.
import { chmodSync, lstatSync, mkdirSync, rmSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { ExchangeError } from '../runtime/exchange/exchange-error.js';
import { exchangeLayout } from '../runtime/exchange/exchange-layout.js';
import type { ExchangeLayout } from '../runtime/exchange/exchange-layout.js';
import { AdminError } from './admin-error.js';

/**
 * What the folder is called in a refusal: `--exchange` and PATH on the command line; with --appliance the entry's
 * field (`write_exchange_dir of appliance a`), so the operator fixes the inventory, not an option never given.
 */
export interface ExchangeSetting {
  readonly name: string;
  readonly path: string;
}
export const EXCHANGE_OPTION: ExchangeSetting = Object.freeze({ name: '--exchange', path: 'PATH' });

function isInside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : `${folder}${sep}`);
}

/** A directory made 0700, or an existing real directory left as it is; true when this run made it. */
function ensureDirectory(path: string, label: string, name: string): boolean {
  try {
    mkdirSync(path, { mode: 0o700 });
    chmodSync(path, 0o700);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new AdminError('EXCHANGE_NO_PARENT', `${name}: the parent of ${label} does not exist`);
    if (code !== 'EEXIST') throw new AdminError('EXCHANGE_IO_ERROR', `${name}: ${label} cannot be created (${code ?? 'error'})`);
  }
  const st = lstatSync(path);
  if (st.isSymbolicLink()) throw new AdminError('EXCHANGE_SYMLINK', `${name}: ${label} must not be a symbolic link`);
  if (!st.isDirectory()) throw new AdminError('EXCHANGE_NOT_DIRECTORY', `${name}: ${label} exists and is not a directory`);
  return false;
}

/**
 * The exchange folder's layout, refused inside the write directory or around it. For an inventory entry the
 * inventory check refuses that first (refuseSharedWriteDirectories), so this names the field only as a backstop.
 */
export function exchangeLayoutOf(path: string, writeDir: string, setting: ExchangeSetting = EXCHANGE_OPTION): ExchangeLayout {
  let layout: ExchangeLayout;
  try {
    layout = exchangeLayout(path);
  } catch (error) {
    if (error instanceof ExchangeError) throw AdminError.usage(`${setting.name}: must be an absolute path`);
    throw error;
  }
  const dir = resolve(writeDir);
  if (isInside(layout.dir, dir) || isInside(dir, layout.dir)) {
    throw new AdminError(
      'EXCHANGE_IN_WRITE_DIRECTORY',
      `${setting.name}: must lie outside the write directory and must not contain it (the folder is shared; the keys and stores are not)`,
    );
  }
  return layout;
}

/** Creates what is missing of the folder; returns an undo that removes exactly what this run created. */
export function createExchangeFolder(layout: ExchangeLayout, setting: ExchangeSetting = EXCHANGE_OPTION): () => void {
  const made: string[] = [];
  try {
    for (const [path, label] of [
      [layout.dir, setting.path],
      [layout.requestsDir, `${setting.path}/requests`],
      [layout.answersDir, `${setting.path}/answers`],
    ] as const) {
      if (ensureDirectory(path, label, setting.name)) made.push(path);
    }
  } catch (error) {
    undo(made);
    throw error;
  }
  return () => undo(made);
}

function undo(made: readonly string[]): void {
  for (const path of [...made].reverse()) rmSync(path, { recursive: true, force: true });
}
