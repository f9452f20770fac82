import { basename } from 'node:path';
import type { AuthorityRole } from './authority-role.js';
import { KeyFileError } from './key-file-error.js';
import { readPrivateKeyFile, writePrivateKeyFile } from './private-key-file.js';

/** Version 1 (no role in the file): `pfsense-mcp-ed25519-private-key-v1 <base64url 32 bytes>\n`. Still read. */
export const ED25519_PRIVATE_KEY_FILE_LABEL = 'pfsense-mcp-ed25519-private-key-v1';

/** Version 2, what this build writes: `pfsense-mcp-ed25519-private-key-v2 <role> <base64url 32 bytes>\n`. */
export const ED25519_PRIVATE_KEY_FILE_LABEL_V2 = 'pfsense-mcp-ed25519-private-key-v2';

/** The roles an Ed25519 key file records (a lab-gate key has its own label, private-key-file.ts). */
export type KeyFileRole = Exclude<AuthorityRole, 'lab-gate'>;
export const KEY_FILE_ROLES: readonly KeyFileRole[] = Object.freeze([
  'plan-authorization',
  'confirmation',
  'reconciliation',
  'server-request',
]);

export interface Ed25519PrivateKeyFileContent {
  readonly privateKey: Uint8Array;
  readonly publicKey: Uint8Array;
  readonly keyId: string;
  /** The role the file records (v2), or for a v1 file the role its name gives (`ROLE.key`, `ROLE-<id>.key`); else null. */
  readonly role: KeyFileRole | null;
}

/**
 * The role a version-1 file's name gives: keygen wrote `ROLE-<16 hex>.key` and `admin init` `server-request.key`,
 * so files made by this product keep working with their role known (docs/DESIGN.md §10).
 */
export function keyFileRoleOfName(name: string): KeyFileRole | null {
  for (const role of KEY_FILE_ROLES) {
    if (name === `${role}.key` || new RegExp(`^${role}-[0-9a-f]{16}\\.key$`).test(name)) return role;
  }
  return null;
}

function labelOf(role: KeyFileRole): string {
  return `${ED25519_PRIVATE_KEY_FILE_LABEL_V2} ${role}`;
}

/** The label of an Ed25519 key file, chosen from its first bytes: v2 carries its role, v1 none. */
function labelIn(buf: Buffer, name: string): string {
  const v2 = Buffer.from(`${ED25519_PRIVATE_KEY_FILE_LABEL_V2} `, 'ascii');
  if (!buf.subarray(0, v2.length).equals(v2)) return ED25519_PRIVATE_KEY_FILE_LABEL;
  // The role is one of a closed set; the exact line is checked by decodeKeyLine for that role's label.
  const role = KEY_FILE_ROLES.find((r) => buf.subarray(0, labelOf(r).length + 1).equals(Buffer.from(`${labelOf(r)} `, 'ascii')));
  if (role === undefined) {
    throw new KeyFileError(
      'BAD_FORMAT',
      name,
      `must be exactly one line "${ED25519_PRIVATE_KEY_FILE_LABEL_V2} <role> <base64url of 32 bytes>"`,
    );
  }
  return labelOf(role);
}

export function readEd25519PrivateKeyFile(path: string): Ed25519PrivateKeyFileContent {
  const { privateKey, publicKey, keyId, label } = readPrivateKeyFile(path, labelIn);
  const role =
    label === ED25519_PRIVATE_KEY_FILE_LABEL
      ? keyFileRoleOfName(basename(path))
      : (KEY_FILE_ROLES.find((r) => labelOf(r) === label) ?? null);
  return { privateKey, publicKey, keyId, role };
}

/** Writes a version-2 key file recording `role`. */
export function writeEd25519PrivateKeyFile(path: string, privateKey: Uint8Array, role: KeyFileRole): void {
  if (!KEY_FILE_ROLES.includes(role)) throw new TypeError('writeEd25519PrivateKeyFile: "role" must be a key-file role');
  writePrivateKeyFile(path, labelOf(role), privateKey, 'writeEd25519PrivateKeyFile');
}
