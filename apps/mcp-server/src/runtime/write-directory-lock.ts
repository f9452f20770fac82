// Who is using a write directory: each server process announces itself with a presence file; `admin migrate` holds
// a maintenance lock. Each side writes its own file first and then looks for the other's, so the two can never both
// go ahead (docs/DESIGN.md §6). A file whose process is gone (pid, start time, boot id) is stale and ignored.
import { closeSync, constants, fsyncSync, openSync, readFileSync, readdirSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { currentProcessOwner, isOwnerAlive } from '@pfsense-mcp/contract-store';
import type { ProcessOwner } from '@pfsense-mcp/contract-store';
import { WriteDirectoryError } from './write-directory-error.js';
import { SERVER_PRESENCE_PATTERN, serverPresenceFile } from './write-directory-layout.js';
import type { WriteDirectoryLayout } from './write-directory-layout.js';

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
    const o = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
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

/** Live server processes announced in DIR (other than this one). */
export function liveServerCount(layout: WriteDirectoryLayout): number {
  return readdirSync(layout.presenceDir)
    .filter((n) => SERVER_PRESENCE_PATTERN.test(n))
    .filter((n) => alive(join(layout.presenceDir, n))).length;
}

/** True when a live `admin migrate` holds the maintenance lock. */
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
    throw new WriteDirectoryError('IN_USE', layout.maintenanceLockFile, '`pfsense-mcp admin migrate` is running on this write directory; start the server after it ends');
  }
  return () => removeQuietly(path);
}

/** `admin migrate`'s lock: taken only when no live server is announced; returns its release. */
export function beginMaintenance(layout: WriteDirectoryLayout): () => void {
  if (!writeOwnerFile(layout.maintenanceLockFile)) {
    if (alive(layout.maintenanceLockFile)) throw new WriteDirectoryError('IN_USE', layout.maintenanceLockFile, 'another `admin migrate` is running');
    removeQuietly(layout.maintenanceLockFile);
    if (!writeOwnerFile(layout.maintenanceLockFile)) throw new WriteDirectoryError('IN_USE', layout.maintenanceLockFile, 'another `admin migrate` is running');
  }
  if (liveServerCount(layout) > 0) {
    removeQuietly(layout.maintenanceLockFile);
    throw new WriteDirectoryError('IN_USE', layout.dir, 'a pfsense-mcp server is running on this write directory; stop it before migrating');
  }
  return () => removeQuietly(layout.maintenanceLockFile);
}
