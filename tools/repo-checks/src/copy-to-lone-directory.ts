// A copy of the repository alone in a fresh temporary directory — no sibling folders, nothing above it but the
// temp dir — with the installed dependencies linked in (they are what `npm ci` would put there, not a sibling).
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { listRepositoryFiles } from './list-repository-files.js';

export interface LoneCopy {
  /** The temporary directory that holds only `repo`. */
  readonly parent: string;
  /** The copied repository root. */
  readonly root: string;
  /** The files copied, relative to the root. */
  readonly files: readonly string[];
}

export function copyToLoneDirectory(root: string): LoneCopy {
  if (typeof root !== 'string' || root.length === 0) throw new TypeError('copyToLoneDirectory: root must be a non-empty path');
  const parent = mkdtempSync(join(tmpdir(), 'pfsense-mcp-lone-'));
  const copy = join(parent, 'repo');
  const files = listRepositoryFiles(root);
  for (const rel of files) {
    mkdirSync(dirname(join(copy, rel)), { recursive: true });
    copyFileSync(join(root, rel), join(copy, rel));
  }
  symlinkSync(realpathSync(join(root, 'node_modules')), join(copy, 'node_modules'), 'dir');
  if (readdirSync(parent).join() !== 'repo') throw new Error('copyToLoneDirectory: the temporary directory is not empty');
  return Object.freeze({ parent, root: copy, files });
}
