import { basename } from 'node:path';
import { assertBytes } from './assert-bytes.js';
import type { AuthorityRole } from './authority-role.js';
import { ED25519_KEY_BYTES, ed25519PublicKeyOf } from './ed25519.js';
import { keyIdOf } from './key-id-of.js';
import { KeyFileError } from './key-file-error.js';
import { decodeKeyLine, encodeKeyLine } from './key-file-format.js';
import { readSecretFile, writeSecretFile } from './secret-file.js';

/** Version 1 (no role in the file): `pfsense-mcp-ed25519-private-key-v1 <base64url 32 bytes>\n`. Still read. */
export const ED25519_PRIVATE_KEY_FILE_LABEL = 'pfsense-mcp-ed25519-private-key-v1';

/** Version 2, what this build writes: `pfsense-mcp-ed25519-private-key-v2 <role> <base64url 32 bytes>\n`. */
export const ED25519_PRIVATE_KEY_FILE_LABEL_V2 = 'pfsense-mcp-ed25519-private-key-v2';

/** The roles an Ed25519 key file records (a lab-gate key has its own file, lab-gate-private-key-file.ts). */
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

function decode(buf: Buffer, path: string): { seed: Uint8Array; role: KeyFileRole | null } {
  const name = basename(path);
  const v2 = Buffer.from(`${ED25519_PRIVATE_KEY_FILE_LABEL_V2} `, 'ascii');
  if (buf.subarray(0, v2.length).equals(v2)) {
    // The role is one of a closed set; the exact line is checked by decodeKeyLine for that role's label.
    const role = KEY_FILE_ROLES.find((r) => buf.subarray(0, labelOf(r).length + 1).equals(Buffer.from(`${labelOf(r)} `, 'ascii')));
    if (role === undefined) {
      throw new KeyFileError(
        'BAD_FORMAT',
        name,
        `must be exactly one line "${ED25519_PRIVATE_KEY_FILE_LABEL_V2} <role> <base64url of 32 bytes>"`,
      );
    }
    return { seed: decodeKeyLine(labelOf(role), buf, name), role };
  }
  return { seed: decodeKeyLine(ED25519_PRIVATE_KEY_FILE_LABEL, buf, name), role: keyFileRoleOfName(name) };
}

export function readEd25519PrivateKeyFile(path: string): Ed25519PrivateKeyFileContent {
  const buf = readSecretFile(path, { maxBytes: 256 });
  try {
    const { seed, role } = decode(buf, path);
    const publicKey = ed25519PublicKeyOf(seed);
    return { privateKey: seed, publicKey, keyId: keyIdOf(publicKey), role };
  } finally {
    buf.fill(0);
  }
}

/** Writes a version-2 key file recording `role`. */
export function writeEd25519PrivateKeyFile(path: string, privateKey: Uint8Array, role: KeyFileRole): void {
  assertBytes('writeEd25519PrivateKeyFile', 'privateKey', privateKey, ED25519_KEY_BYTES);
  if (!KEY_FILE_ROLES.includes(role)) throw new TypeError('writeEd25519PrivateKeyFile: "role" must be a key-file role');
  writeSecretFile(path, encodeKeyLine(labelOf(role), privateKey));
}
