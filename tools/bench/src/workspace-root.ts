import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The workspace root: the nearest ancestor of this file (bundled or not) holding nx.json. */
export function findWorkspaceRoot(from: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = resolve(from);
  for (;;) {
    if (existsSync(join(dir, 'nx.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('bench: cannot find the workspace root (nx.json)');
    dir = parent;
  }
}
