import { createSecureFile } from './secure-store-path.js';
import { assertOpen } from './store-state.js';
import type { StoreState } from './store-state.js';

/** A consistent online copy (SQLite backup API) into a new file created 0600 by exclusive creation. */
export async function backupTo(s: StoreState, path: string): Promise<void> {
  assertOpen(s);
  if (typeof path !== 'string' || path.length === 0 || path.includes('\0'))
    throw new TypeError('backupTo: "path" must be a non-empty path');
  createSecureFile(path);
  await s.db.backup(path);
}

/** WAL checkpoint (TRUNCATE) + VACUUM + checkpoint again, so purged pages leave the files entirely. */
export function compact(s: StoreState): void {
  assertOpen(s);
  s.db.pragma('wal_checkpoint(TRUNCATE)');
  s.db.exec('VACUUM');
  s.db.pragma('wal_checkpoint(TRUNCATE)');
}

/** Closes the database; a second close does nothing, every other operation then throws StoreClosedError. */
export function close(s: StoreState): void {
  if (s.life.closed) return;
  s.life.closed = true;
  s.db.close();
}
