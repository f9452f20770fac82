import { basename } from 'node:path';
import { beginMaintenance } from '../runtime/write-directory/write-directory-lock.js';
import type { WriteDirectoryLayout } from '../runtime/write-directory/write-directory-layout.js';
import type { AdminContext } from './admin-context.js';
import { adminErrorOf, openWriteDirectory } from './open-write-directory.js';
import type { AdminArgs } from './parse-admin-args.js';

/** The exclusive hold an admin command has on DIR while it runs; `notes` are lines for its output. */
export interface WriteDirectoryHold {
  /** One line per stale presence file (its process is gone): not a running server, ignored. */
  readonly notes: readonly string[];
  readonly release: () => void;
}

const COMMAND = /^[a-z][a-z -]{0,40}$/;

/**
 * The one "refuse while a server holds DIR" check of the commands that need DIR to themselves (docs/DESIGN.md §6):
 * `migrate`, `purge`, `reanchor --accept-restore`, `rotate server-key`, `rotate master-key`. A presence file
 * `DIR/.server-<pid>.lock` of a live process (same pid, start time and boot) means a server holds DIR: refused
 * (WRITE_DIR_IN_USE, naming that file). One of a dead process is stale: not held, and said so in `notes`. The
 * maintenance lock is taken before the presence files are read, so no server can start until `release()`.
 */
export function holdWriteDirectory(layout: WriteDirectoryLayout, command: string): WriteDirectoryHold {
  if (typeof command !== 'string' || !COMMAND.test(command))
    throw new TypeError('holdWriteDirectory: "command" must be an admin command name');
  let held;
  try {
    held = beginMaintenance(layout, command);
  } catch (error) {
    throw adminErrorOf(error);
  }
  const notes = held.stale.map((file) => `${basename(file)}: stale (its process is gone), not a running server; ignored`);
  return Object.freeze({ notes: Object.freeze(notes), release: held.release });
}

/**
 * The preamble of every command that needs DIR to itself: open it (owner-only, laid out by init, an interrupted
 * rotation settled: openWriteDirectory), hold it (holdWriteDirectory), run `f`, release the hold whatever happens.
 */
export async function withHeldWriteDirectory<T>(
  args: AdminArgs,
  ctx: AdminContext,
  command: string,
  f: (layout: WriteDirectoryLayout, hold: WriteDirectoryHold) => T | Promise<T>,
): Promise<T> {
  const layout = openWriteDirectory(args, ctx);
  const hold = holdWriteDirectory(layout, command);
  try {
    return await f(layout, hold);
  } finally {
    hold.release();
  }
}
