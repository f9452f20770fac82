import { isAbsolute, resolve } from 'node:path';
import { settleInterruptedRotation } from '../runtime/write-directory/settle-key-rotation.js';
import { writeCliOutput } from '../runtime/startup/write-cli-output.js';
import { WriteDirectoryError } from '../runtime/write-directory/write-directory-error.js';
import {
  WRITE_ANCHOR_DIR_VARIABLE,
  assertWriteDirectory,
  writeDirectoryLayout,
} from '../runtime/write-directory/write-directory-layout.js';
import type { WriteDirectoryLayout } from '../runtime/write-directory/write-directory-layout.js';
import { AdminError } from './admin-error.js';
import type { AdminArgs } from './parse-admin-args.js';
import { adminWriteSettings } from './admin-context.js';
import type { AdminContext } from './admin-context.js';

/** --dir as an absolute path (a relative one is taken from the current directory). */
export function dirArgument(args: AdminArgs): string {
  const dir = args.values.get('--dir');
  if (dir === undefined) throw AdminError.usage('--dir: required (the write directory made by `pfsense-mcp admin init`)');
  return isAbsolute(dir) ? resolve(dir) : resolve(process.cwd(), dir);
}

/** The selected appliance's write_anchor_dir, or PFSENSE_WRITE_ANCHOR_DIR when set: absolute, or refused. */
export function anchorDirOf(ctx: AdminContext): string | null {
  const settings = adminWriteSettings(ctx);
  if (settings !== null) return settings.anchorDir;
  const value = ctx.env[WRITE_ANCHOR_DIR_VARIABLE];
  if (value === undefined || value === '') return null;
  if (!isAbsolute(value)) throw new AdminError('CONFIG', `${WRITE_ANCHOR_DIR_VARIABLE}: must be an absolute path`);
  return value;
}

/** The write directory's layout (computed, not checked). */
export function layoutOf(args: AdminArgs, ctx: AdminContext): WriteDirectoryLayout {
  try {
    return writeDirectoryLayout(dirArgument(args), anchorDirOf(ctx));
  } catch (error) {
    throw adminErrorOf(error);
  }
}

/**
 * The layout of an existing write directory that is owner-only and laid out by init; refused otherwise. An
 * interrupted `rotate master-key` is settled first (rolled back or completed, one line on stderr says which),
 * so no command ever opens a store with the staged files of a rotation half done.
 */
export function openWriteDirectory(args: AdminArgs, ctx: AdminContext): WriteDirectoryLayout {
  const layout = layoutOf(args, ctx);
  try {
    assertWriteDirectory(layout);
    const settled = settleInterruptedRotation(layout);
    if (settled.action !== 'none') {
      const what =
        settled.action === 'completed'
          ? `completed: the stores are at key epoch ${settled.newEpoch}`
          : `rolled back: the stores stay at key epoch ${settled.oldEpoch}`;
      writeCliOutput(`pfsense-mcp admin: an interrupted master-key rotation was ${what}`);
    }
  } catch (error) {
    throw adminErrorOf(error);
  }
  return layout;
}

export function adminErrorOf(error: unknown): unknown {
  if (error instanceof WriteDirectoryError) return new AdminError(`WRITE_DIR_${error.code}`, `${error.path}: ${error.rule}`);
  return error;
}
