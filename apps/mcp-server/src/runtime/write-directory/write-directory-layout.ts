// The one owner of every path of the write directory (docs/DESIGN.md §6): `pfsense-mcp admin` creates it,
// the write runtime opens it, and neither spells a path of its own.
import { lstatSync, readdirSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { ownerOnlyProblem, ownerOnlyRefusal } from '@pfsense-mcp/foundation';
import type { OwnerOnlyProblem } from '@pfsense-mcp/foundation';
import { WriteDirectoryError } from './write-directory-error.js';

/** The environment variable that moves the two anti-rollback anchors to another medium. */
export const WRITE_ANCHOR_DIR_VARIABLE = 'PFSENSE_WRITE_ANCHOR_DIR';

/** Every path of one write directory. Frozen; computed from DIR and the optional anchor directory. */
export interface WriteDirectoryLayout {
  readonly dir: string;
  readonly storeDir: string;
  readonly contractsDatabase: string;
  readonly consumptionDatabase: string;
  readonly keysDir: string;
  readonly masterKeyFile: string;
  /** The journal of an interrupted `admin rotate master-key` (absent when none is pending; contract-store README). */
  readonly rotationJournalFile: string;
  /** The server's own `server-request` signing key (private, 0600). */
  readonly serverRequestKeyFile: string;
  /** Its public half (64 hex + newline), what the operator hands the signer as `--server-key`. */
  readonly serverRequestPublicKeyFile: string;
  /** The server-request keys retired by `admin rotate server-key` (absent until the first rotation). */
  readonly retiredServerKeysFile: string;
  /** DIR/anchors, always created by init (empty when the anchors live elsewhere). */
  readonly localAnchorDir: string;
  /** Where the anchors really are: `localAnchorDir`, or the PFSENSE_WRITE_ANCHOR_DIR directory. */
  readonly anchorDir: string;
  readonly anchorDirIsExternal: boolean;
  readonly contractsAnchorFile: string;
  readonly consumptionAnchorFile: string;
  readonly authoritiesFile: string;
  readonly inboxDir: string;
  readonly outboxDir: string;
  /** Held by `pfsense-mcp admin migrate` while it upgrades the stores (the server refuses to start meanwhile). */
  readonly maintenanceLockFile: string;
  /** Where each running server process announces itself (`serverPresenceFile(layout, pid)`). */
  readonly presenceDir: string;
}

/** The presence file of one running server process (a dot-file of DIR, never an artifact). */
export const SERVER_PRESENCE_PATTERN = /^\.server-[0-9]{1,10}\.lock$/;
export function serverPresenceFile(layout: WriteDirectoryLayout, pid: number): string {
  return join(layout.presenceDir, `.server-${pid}.lock`);
}

function assertPathArgument(name: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 4096 || value.includes('\0')) {
    throw new TypeError(`writeDirectoryLayout: "${name}" must be a non-empty path without NUL`);
  }
  if (!isAbsolute(value)) throw new WriteDirectoryError('NOT_ABSOLUTE', name, 'must be an absolute path');
  return resolve(value);
}

/**
 * The layout of DIR. `anchorDir` (absolute, from PFSENSE_WRITE_ANCHOR_DIR) puts the anchors on another medium;
 * it must not be inside the store directory (the store refuses an anchor beside its database).
 */
export function writeDirectoryLayout(dir: string, anchorDir?: string | null): WriteDirectoryLayout {
  const root = assertPathArgument('dir', dir);
  const external = anchorDir === undefined || anchorDir === null ? null : assertPathArgument(WRITE_ANCHOR_DIR_VARIABLE, anchorDir);
  const storeDir = join(root, 'store');
  const keysDir = join(root, 'keys');
  const localAnchorDir = join(root, 'anchors');
  if (external !== null && (external === storeDir || external.startsWith(`${storeDir}/`) || external === root)) {
    throw new WriteDirectoryError('UNSAFE_MODE', WRITE_ANCHOR_DIR_VARIABLE, 'must not be the write directory or its store directory');
  }
  const anchors = external ?? localAnchorDir;
  return Object.freeze({
    dir: root,
    storeDir,
    contractsDatabase: join(storeDir, 'contracts.sqlite'),
    consumptionDatabase: join(storeDir, 'consumption.sqlite'),
    keysDir,
    masterKeyFile: join(keysDir, 'master.key'),
    rotationJournalFile: join(keysDir, 'rotation.journal'),
    serverRequestKeyFile: join(keysDir, 'server-request.key'),
    serverRequestPublicKeyFile: join(keysDir, 'server-request.pub'),
    retiredServerKeysFile: join(keysDir, 'server-request.retired.json'),
    localAnchorDir,
    anchorDir: anchors,
    anchorDirIsExternal: external !== null,
    contractsAnchorFile: join(anchors, 'contracts.anchor'),
    consumptionAnchorFile: join(anchors, 'consumption.anchor'),
    authoritiesFile: join(root, 'authorities.json'),
    inboxDir: join(root, 'inbox'),
    outboxDir: join(root, 'outbox'),
    maintenanceLockFile: join(root, '.maintenance.lock'),
    presenceDir: root,
  });
}

// The owner-only rules are foundation's ownerOnlyProblem (shared with the contract store); the write directory
// keeps its own errors, its admin-init hints and the full mode mask (a setuid, setgid or sticky bit is refused).
const DIRECTORY_MESSAGES: Readonly<Record<OwnerOnlyProblem, string>> = Object.freeze({
  NOT_FOUND: 'does not exist (run `pfsense-mcp admin init`)',
  SYMLINK: 'must not be a symbolic link',
  NOT_DIRECTORY: 'must be a directory',
  NOT_REGULAR_FILE: 'must be a directory',
  NO_OWNER_MODEL: 'needs a POSIX platform',
  WRONG_OWNER: 'must be owned by the current user',
  UNSAFE_MODE: 'must have mode 0700 (owner-only)',
});
const FILE_MESSAGES: Readonly<Record<OwnerOnlyProblem, string>> = Object.freeze({
  ...DIRECTORY_MESSAGES,
  NOT_DIRECTORY: 'must be a regular file',
  NOT_REGULAR_FILE: 'must be a regular file',
  UNSAFE_MODE: 'must have mode 0600 (owner-only)',
});

function problemOf(path: string, kind: 'directory' | 'file'): OwnerOnlyProblem | null {
  try {
    return ownerOnlyProblem(path, { kind, modeBits: 0o7777 });
  } catch {
    throw new WriteDirectoryError('IO_ERROR', path, 'cannot be inspected');
  }
}

function writeDirectoryError(
  problem: OwnerOnlyProblem,
  path: string,
  messages: Readonly<Record<OwnerOnlyProblem, string>>,
): WriteDirectoryError {
  const { code, subject } = ownerOnlyRefusal(problem, path);
  return new WriteDirectoryError(code, subject, messages[problem]);
}

/** A directory that exists, is no symlink, belongs to the process user and has mode exactly 0700. */
export function assertOwnerOnlyDirectory(path: string): void {
  const problem = problemOf(path, 'directory');
  if (problem !== null) throw writeDirectoryError(problem, path, DIRECTORY_MESSAGES);
}

/** A regular file (no symlink) of the process user with mode exactly 0600. `mustExist: false` allows absence. */
export function assertOwnerOnlyFile(path: string, mustExist = true): boolean {
  const problem = problemOf(path, 'file');
  if (problem === 'NOT_FOUND' && !mustExist) return false;
  if (problem !== null) throw writeDirectoryError(problem, path, FILE_MESSAGES);
  return true;
}

/**
 * A folder `admin init` did not make (an empty one, or one with none of init's entries): the first thing to say is
 * to run init — not the first rule it breaks (often its mode, which init would set). Existence only is looked at;
 * a folder that cannot even be listed is left to the owner-only checks.
 */
function refuseUninitialized(layout: WriteDirectoryLayout): void {
  let entries: string[];
  try {
    if (!lstatSync(layout.dir).isDirectory()) return;
    entries = readdirSync(layout.dir);
  } catch {
    return;
  }
  const made = [layout.storeDir, layout.keysDir, layout.authoritiesFile].some((p) => entries.includes(basename(p)));
  if (!made) {
    throw new WriteDirectoryError(
      'NOT_INITIALIZED',
      layout.dir,
      `is not a write directory (\`pfsense-mcp admin init\` did not make it): run \`pfsense-mcp admin init --dir ${layout.dir}\` (on a new or empty directory)`,
    );
  }
}

/**
 * Throws WriteDirectoryError unless DIR is owner-only and laid out by `pfsense-mcp admin init`: every
 * directory 0700, every file 0600, all owned by the current user, none a symlink. Anchor files may be absent
 * (the store decides what a missing anchor means); present, they obey the same rules. Reads no content.
 */
export function assertWriteDirectory(layout: WriteDirectoryLayout): void {
  refuseUninitialized(layout);
  for (const dir of [layout.dir, layout.storeDir, layout.keysDir, layout.localAnchorDir, layout.inboxDir, layout.outboxDir]) {
    assertOwnerOnlyDirectory(dir);
  }
  if (layout.anchorDirIsExternal) assertOwnerOnlyDirectory(layout.anchorDir);
  for (const file of [
    layout.contractsDatabase,
    layout.consumptionDatabase,
    layout.masterKeyFile,
    layout.serverRequestKeyFile,
    layout.serverRequestPublicKeyFile,
    layout.authoritiesFile,
  ]) {
    assertOwnerOnlyFile(file);
  }
  assertOwnerOnlyFile(layout.retiredServerKeysFile, false);
  assertOwnerOnlyFile(layout.contractsAnchorFile, false);
  assertOwnerOnlyFile(layout.consumptionAnchorFile, false);
}
