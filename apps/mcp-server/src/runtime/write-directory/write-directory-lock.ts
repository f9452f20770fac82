// Who is using a write directory: each server process announces itself with a presence file; the admin commands
// that need DIR to themselves (migrate, purge, reanchor, rotate) hold a maintenance lock. Each side writes its own file first and then looks for the other's, so the two can never both
// go ahead (docs/DESIGN.md §6). A file whose process is gone (pid, start time, boot id) is stale and ignored.
import { closeSync, constants, fsyncSync, openSync, readdirSync, unlinkSync, writeSync } from 'node:fs';
import { readRegularFile } from '@pfsense-mcp/foundation';
import { join } from 'node:path';
import { currentProcessOwner, isOwnerAlive } from '@pfsense-mcp/contract-store';
import type { ProcessOwner } from '@pfsense-mcp/contract-store';
import { WriteDirectoryError } from './write-directory-error.js';
import { SERVER_PRESENCE_PATTERN, serverPresenceFile } from './write-directory-layout.js';
import type { WriteDirectoryLayout } from './write-directory-layout.js';

const MAX_OWNER_FILE_BYTES = 4096;

function writeOwnerFile(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new WriteDirectoryError('IO_ERROR', path, 'cannot be created');
  }
  try {
    const bytes = Buffer.from(JSON.stringify(currentProcessOwner()), 'utf8');
    writeSync(fd, bytes, 0, bytes.length);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** The owner recorded in a lock file, or null when it is unreadable (treated as stale). */
function ownerOf(path: string): ProcessOwner | null {
  try {
    // A regular file of at most a few hundred bytes (what writeOwnerFile writes): a FIFO or a huge file planted
    // under that name is unreadable, so stale.
    const o = JSON.parse(Buffer.from(readRegularFile(path, MAX_OWNER_FILE_BYTES)).toString('utf8')) as Record<string, unknown>;
    if (typeof o['pid'] === 'number' && typeof o['start_time'] === 'string' && typeof o['boot_id'] === 'string') {
      return { pid: o['pid'], start_time: o['start_time'], boot_id: o['boot_id'] };
    }
  } catch {
    // unreadable: stale
  }
  return null;
}

function alive(path: string): boolean {
  const owner = ownerOf(path);
  return owner !== null && owner.pid !== process.pid && isOwnerAlive(owner);
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

/** The server presence files of DIR: those of a live process (held) and those left by a dead one (stale). */
export interface ServerPresence {
  readonly live: readonly string[];
  readonly stale: readonly string[];
}

export function serverPresence(layout: WriteDirectoryLayout): ServerPresence {
  const files = readdirSync(layout.presenceDir)
    .filter((n) => SERVER_PRESENCE_PATTERN.test(n))
    .map((n) => join(layout.presenceDir, n))
    .sort();
  const live = files.filter((f) => alive(f));
  const stale = files.filter((f) => !live.includes(f) && ownerOf(f)?.pid !== process.pid);
  return Object.freeze({ live: Object.freeze(live), stale: Object.freeze(stale) });
}

/** Live server processes announced in DIR (other than this one). */
export function liveServerCount(layout: WriteDirectoryLayout): number {
  return serverPresence(layout).live.length;
}

/** True when a live admin maintenance command holds the maintenance lock. */
export function maintenanceInProgress(layout: WriteDirectoryLayout): boolean {
  return alive(layout.maintenanceLockFile);
}

/**
 * A server process announces itself; returns the function that withdraws it (at shutdown). Refused while a live
 * maintenance lock exists (the announcement is withdrawn again first).
 */
export function announceServer(layout: WriteDirectoryLayout): () => void {
  const path = serverPresenceFile(layout, process.pid);
  removeQuietly(path);
  writeOwnerFile(path);
  if (maintenanceInProgress(layout)) {
    removeQuietly(path);
    throw new WriteDirectoryError(
      'IN_USE',
      layout.maintenanceLockFile,
      'a `pfsense-mcp admin` maintenance command (migrate, purge, reanchor, rotate) is running on this write directory; start the server after it ends',
    );
  }
  return () => removeQuietly(path);
}

/**
 * The maintenance lock of one admin command (`command`, e.g. "migrate"): taken only when no live server is
 * announced; returns its release and the stale presence files it ignored. While it is held a server refuses to start.
 */
export function beginMaintenance(
  layout: WriteDirectoryLayout,
  command: string,
): { readonly release: () => void; readonly stale: readonly string[] } {
  const busy = `another \`pfsense-mcp admin\` maintenance command is running on this write directory; retry after it ends`;
  if (!writeOwnerFile(layout.maintenanceLockFile)) {
    if (alive(layout.maintenanceLockFile)) throw new WriteDirectoryError('IN_USE', layout.maintenanceLockFile, busy);
    removeQuietly(layout.maintenanceLockFile);
    if (!writeOwnerFile(layout.maintenanceLockFile)) throw new WriteDirectoryError('IN_USE', layout.maintenanceLockFile, busy);
  }
  const presence = serverPresence(layout);
  const first = presence.live[0];
  if (first !== undefined) {
    removeQuietly(layout.maintenanceLockFile);
    throw new WriteDirectoryError(
      'IN_USE',
      first,
      `a pfsense-mcp server is running on this write directory (this presence file's process is alive); stop it before \`admin ${command}\``,
    );
  }
  return Object.freeze({ release: () => removeQuietly(layout.maintenanceLockFile), stale: presence.stale });
}
