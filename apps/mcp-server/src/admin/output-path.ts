import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import type { WriteDirectoryLayout } from '../runtime/write-directory/write-directory-layout.js';
import { AdminError } from './admin-error.js';

/** The real path of `path`, or of its nearest existing ancestor with the rest appended (the output may not exist yet). */
function realPathOf(path: string): string {
  const rest: string[] = [];
  let at = path;
  for (;;) {
    try {
      return join(realpathSync(at), ...rest.reverse());
    } catch {
      const parent = dirname(at);
      if (parent === at) return path;
      rest.push(basename(at));
      at = parent;
    }
  }
}

function within(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith('/') ? dir : `${dir}/`);
}

/**
 * An output path given to an admin command (`--out`), absolute, refused when it lies inside the write directory —
 * its inbox and outbox are scanned on every write, so a file or directory put there refuses writes — or inside the
 * anchor directory; compared as given and with symbolic links resolved (a link into DIR is DIR).
 */
export function outputPathOutsideWriteDirectory(layout: WriteDirectoryLayout, value: string, flag: string): string {
  const path = isAbsolute(value) ? resolve(value) : resolve(process.cwd(), value);
  const real = realPathOf(path);
  for (const dir of [layout.dir, layout.anchorDir]) {
    const realDir = realPathOf(dir);
    if (within(path, dir) || within(real, dir) || within(path, realDir) || within(real, realDir)) {
      throw new AdminError('OUT_INSIDE_WRITE_DIR', `${flag}: must be outside the write directory and the anchor directory`);
    }
  }
  return path;
}
