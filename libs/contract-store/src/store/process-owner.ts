import { readFileSync } from 'node:fs';
import type { ProcessOwner } from '../model/recovery-contract.js';

/** The boot id of this machine's current boot (Linux), read once per process. */
let cachedBootId: string | null = null;

export function currentBootId(): string {
  if (cachedBootId === null) {
    const id = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    if (!/^[0-9a-f-]{36}$/.test(id)) throw new Error('process owner: unreadable boot id');
    cachedBootId = id;
  }
  return cachedBootId;
}

/**
 * Start time of `pid` (field 22 of /proc/<pid>/stat, clock ticks since boot), or null if no such
 * process. Parsed after the last ')' because the command name (field 2) may contain spaces or ')'.
 */
export function processStartTime(pid: number): string | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  const close = stat.lastIndexOf(')');
  if (close < 0) return null;
  const fields = stat.slice(close + 2).split(' ');
  // fields[0] is field 3 (state), so field 22 is fields[19].
  const start = fields[19];
  return start !== undefined && /^[0-9]{1,20}$/.test(start) ? start : null;
}

/** The owner record of the running process (pid, start time, boot id). */
export function currentProcessOwner(): ProcessOwner {
  const start = processStartTime(process.pid);
  if (start === null) throw new Error('process owner: cannot read own start time');
  return Object.freeze({ pid: process.pid, start_time: start, boot_id: currentBootId() });
}

/** An owner is alive only if the same pid still runs with the same start time in the same boot. */
export function isOwnerAlive(owner: ProcessOwner): boolean {
  if (owner.boot_id !== currentBootId()) return false;
  const start = processStartTime(owner.pid);
  return start !== null && start === owner.start_time;
}

export function sameOwner(a: ProcessOwner, b: ProcessOwner): boolean {
  return a.pid === b.pid && a.start_time === b.start_time && a.boot_id === b.boot_id;
}
