// The repository's own files, as a clone has them: everything under the root except what installs, builds and
// test runs create there (the .gitignore'd folders) and git's own directory.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Folders a clone does not contain (installed, built or written by runs), at any depth. */
export const NOT_IN_A_CLONE: ReadonlySet<string> = Object.freeze(
  new Set(['.git', 'node_modules', 'dist', 'tmp', 'coverage', '.nx']),
) as ReadonlySet<string>;

// Files written by local runs that .gitignore keeps out of every clone (databases, logs, keys).
const IGNORED_FILE = /\.(?:sqlite|sqlite-wal|sqlite-shm|db|log|key|pem|pub)$|^\.env$/u;

/** Paths relative to `root` (posix separators), sorted. Symbolic links are listed, never followed. */
export function listRepositoryFiles(root: string): readonly string[] {
  if (typeof root !== 'string' || root.length === 0) throw new TypeError('listRepositoryFiles: root must be a non-empty path');
  const out: string[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (NOT_IN_A_CLONE.has(entry.name)) continue;
      const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) walk(join(dir, entry.name), rel);
      else if (!IGNORED_FILE.test(entry.name)) out.push(rel);
    }
  };
  walk(root, '');
  return Object.freeze(out.sort());
}
