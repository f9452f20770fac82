import { lstatSync } from 'node:fs';
import type { Stats } from 'node:fs';

/** Why a path is not an owner-only directory or file; null when it is. Value-free: names a rule, never content. */
export type OwnerOnlyProblem =
  'NOT_FOUND' | 'SYMLINK' | 'NOT_DIRECTORY' | 'NOT_REGULAR_FILE' | 'NO_OWNER_MODEL' | 'WRONG_OWNER' | 'UNSAFE_MODE';

export interface OwnerOnlyRule {
  /** What the path must be: a directory (mode 0700) or a regular file (mode 0600). */
  readonly kind: 'directory' | 'file';
  /**
   * The mode bits compared with 0700 / 0600: 0o777 looks at the permission bits only, 0o7777 also refuses a
   * setuid, setgid or sticky bit. Each caller keeps the mask it has always used.
   */
  readonly modeBits: 0o777 | 0o7777;
}

/**
 * lstat-based owner-only check (never follows a link): the path exists, is no symlink, is the kind asked for,
 * belongs to the running user and has exactly mode 0700 (directory) or 0600 (file) under `modeBits`. Returns
 * the first broken rule, in that order, or null. A platform without POSIX ownership (no `process.getuid`) is
 * NO_OWNER_MODEL — fail closed, never skipped. Throws only what lstat throws other than ENOENT.
 */
export function ownerOnlyProblem(path: string, rule: OwnerOnlyRule): OwnerOnlyProblem | null {
  if (typeof path !== 'string' || path.length === 0) throw new TypeError('ownerOnlyProblem: "path" must be a non-empty string');
  if (
    rule === null ||
    typeof rule !== 'object' ||
    (rule.kind !== 'directory' && rule.kind !== 'file') ||
    (rule.modeBits !== 0o777 && rule.modeBits !== 0o7777)
  ) {
    throw new TypeError('ownerOnlyProblem: "rule" must be { kind: "directory" | "file", modeBits: 0o777 | 0o7777 }');
  }
  let st: Stats;
  try {
    st = lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'NOT_FOUND';
    throw error;
  }
  if (st.isSymbolicLink()) return 'SYMLINK';
  if (rule.kind === 'directory' ? !st.isDirectory() : !st.isFile()) return rule.kind === 'directory' ? 'NOT_DIRECTORY' : 'NOT_REGULAR_FILE';
  if (typeof process.getuid !== 'function') return 'NO_OWNER_MODEL';
  if (st.uid !== process.getuid()) return 'WRONG_OWNER';
  if ((st.mode & rule.modeBits) !== (rule.kind === 'directory' ? 0o700 : 0o600)) return 'UNSAFE_MODE';
  return null;
}

/** How a caller reports a problem: the code its error carries and the subject it names. */
export interface OwnerOnlyRefusal {
  readonly code: Exclude<OwnerOnlyProblem, 'NO_OWNER_MODEL'>;
  readonly subject: string;
}

/**
 * The one fail-closed reading of a problem both callers share: NO_OWNER_MODEL is refused as WRONG_OWNER of
 * "(platform)" (the platform, not the path, lacks an owner model); every other problem keeps its name and path.
 */
export function ownerOnlyRefusal(problem: OwnerOnlyProblem, path: string): OwnerOnlyRefusal {
  if (problem === 'NO_OWNER_MODEL') return Object.freeze({ code: 'WRONG_OWNER', subject: '(platform)' });
  return Object.freeze({ code: problem, subject: path });
}
