// authorities.json of the write directory (docs/DESIGN.md §6): the operator public keys the server trusts, each
// for exactly one role. `pfsense-mcp admin trust/untrust` write it; the write runtime only loads it.
import { hexToBytes, isHex64 } from '@pfsense-mcp/canonical';
import { KeyFileError, PinnedAuthoritySet, isValidEd25519PublicKey, keyIdOf, readSecretFile } from '@pfsense-mcp/crypto';
import type { PinnedAuthority } from '@pfsense-mcp/crypto';
import { z } from 'zod';
import { CodedError, replaceFileAtomically } from '@pfsense-mcp/foundation';

/** The roles an operator key may be pinned for. `server-request` is the server's own key, never pinned here. */
export const OPERATOR_ROLES = Object.freeze(['plan-authorization', 'confirmation', 'reconciliation'] as const);
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export const PINNED_AUTHORITIES_FILE_VERSION = 1;
const MAX_FILE_BYTES = 64 * 1024;
const MAX_ENTRIES = 64;

/** One pinned operator key. */
export interface PinnedOperatorKey {
  readonly role: OperatorRole;
  readonly keyId: string;
  /** 64 lowercase hex. */
  readonly publicKey: string;
}

export type PinnedAuthoritiesFileErrorCode = 'UNSAFE_FILE' | 'MALFORMED' | 'INVALID_KEY' | 'DUPLICATE_KEY' | 'TOO_MANY' | 'WRITE_FAILED';

/** authorities.json is unsafe, malformed or inconsistent. Names the file and the rule, never a key. */
export class PinnedAuthoritiesFileError extends CodedError<PinnedAuthoritiesFileErrorCode> {
  override readonly name = 'PinnedAuthoritiesFileError';
  readonly path: string;
  readonly rule: string;

  constructor(code: PinnedAuthoritiesFileErrorCode, path: string, rule: string) {
    super(code, `${path}: ${rule}`);
    this.path = path;
    this.rule = rule;
  }
}

const fileSchema = z.strictObject({
  version: z.literal(PINNED_AUTHORITIES_FILE_VERSION),
  authorities: z
    .array(
      z.strictObject({
        role: z.enum(OPERATOR_ROLES),
        key_id: z.string().regex(/^[0-9a-f]{64}$/),
        public_key: z.string().regex(/^[0-9a-f]{64}$/),
      }),
    )
    .max(MAX_ENTRIES),
});

function assertPath(path: unknown, fn: string): asserts path is string {
  if (typeof path !== 'string' || path.length === 0 || path.includes('\0')) {
    throw new TypeError(`${fn}: "path" must be a non-empty path without NUL`);
  }
}

/** Checks one list of entries: valid keys, key id = digest of key, one role per key, not too many. */
function checkEntries(path: string, entries: readonly PinnedOperatorKey[]): readonly PinnedOperatorKey[] {
  if (entries.length > MAX_ENTRIES) throw new PinnedAuthoritiesFileError('TOO_MANY', path, `holds at most ${MAX_ENTRIES} keys`);
  const seen = new Set<string>();
  const out = entries.map((e, i) => {
    if (!(OPERATOR_ROLES as readonly string[]).includes(e.role)) {
      throw new PinnedAuthoritiesFileError('INVALID_KEY', path, `entry ${i}: role must be one of ${OPERATOR_ROLES.join(', ')}`);
    }
    if (!isHex64(e.publicKey) || !isValidEd25519PublicKey(hexToBytes(e.publicKey))) {
      throw new PinnedAuthoritiesFileError('INVALID_KEY', path, `entry ${i}: public key is not a valid Ed25519 key`);
    }
    if (keyIdOf(hexToBytes(e.publicKey)) !== e.keyId) {
      throw new PinnedAuthoritiesFileError('INVALID_KEY', path, `entry ${i}: key id is not the key id of its public key`);
    }
    if (seen.has(e.keyId)) throw new PinnedAuthoritiesFileError('DUPLICATE_KEY', path, `entry ${i}: a key is pinned at most once`);
    seen.add(e.keyId);
    return Object.freeze({ role: e.role, keyId: e.keyId, publicKey: e.publicKey });
  });
  return Object.freeze(out);
}

/** Reads authorities.json (owner-only 0600/0400 regular file, no symlink) and validates every entry. */
export function loadPinnedAuthorities(path: string): readonly PinnedOperatorKey[] {
  assertPath(path, 'loadPinnedAuthorities');
  let bytes: Buffer;
  try {
    bytes = readSecretFile(path, { maxBytes: MAX_FILE_BYTES });
  } catch (error) {
    if (error instanceof KeyFileError) {
      throw new PinnedAuthoritiesFileError(
        'UNSAFE_FILE',
        path,
        `must be a regular owner-only file of at most ${MAX_FILE_BYTES} bytes, no symlink (${error.code})`,
      );
    }
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new PinnedAuthoritiesFileError('MALFORMED', path, 'must be JSON');
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    throw new PinnedAuthoritiesFileError(
      'MALFORMED',
      path,
      `must be {"version": ${PINNED_AUTHORITIES_FILE_VERSION}, "authorities": [{role, key_id, public_key}]}`,
    );
  }
  return checkEntries(
    path,
    parsed.data.authorities.map((a) => ({ role: a.role, keyId: a.key_id, publicKey: a.public_key })),
  );
}

/** Writes the whole list atomically (temp + fsync + rename, 0600) after the same checks as loading. */
export function savePinnedAuthorities(path: string, entries: readonly PinnedOperatorKey[]): void {
  assertPath(path, 'savePinnedAuthorities');
  if (!Array.isArray(entries)) throw new TypeError('savePinnedAuthorities: "entries" must be an array');
  const checked = checkEntries(path, entries);
  const content = `${JSON.stringify(
    {
      version: PINNED_AUTHORITIES_FILE_VERSION,
      authorities: checked.map((e) => ({ role: e.role, key_id: e.keyId, public_key: e.publicKey })),
    },
    null,
    2,
  )}\n`;
  try {
    replaceFileAtomically(path, content);
  } catch (error) {
    throw new PinnedAuthoritiesFileError('WRITE_FAILED', path, `cannot be replaced (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** The pinned keys as the PinnedAuthoritySet the verifiers use (all active). */
export function pinnedAuthoritySetOf(entries: readonly PinnedOperatorKey[]): PinnedAuthoritySet {
  const authorities: PinnedAuthority[] = entries.map((e) => ({
    keyId: e.keyId,
    publicKey: hexToBytes(e.publicKey),
    role: e.role,
    active: true,
  }));
  return PinnedAuthoritySet.of(authorities);
}
