// keys/server-request.retired.json (docs/DESIGN.md §6): the server-request keys `admin rotate server-key` retired,
// each with the outbox files it had signed that were still needed at the rotation. Only those recorded files can
// keep a retired key pinned for verification; the server never signs with it again.
import { hexToBytes } from '@pfsense-mcp/canonical';
import { KeyFileError, isValidEd25519PublicKey, keyIdOf, readSecretFile } from '@pfsense-mcp/crypto';
import { z } from 'zod';
import { replaceFileAtomically } from '@pfsense-mcp/foundation';
import { WriteDirectoryError } from './write-directory-error.js';

export const RETIRED_SERVER_KEYS_FILE_VERSION = 1;
const MAX_FILE_BYTES = 1024 * 1024;
const MAX_KEYS = 64;
const MAX_FILES_PER_KEY = 4096;

/** One outbox file a retired key signed, by name and the SHA-256 of its bytes at the rotation. */
export interface RecordedRequestFile {
  readonly file: string;
  readonly sha256: string;
}

export interface RetiredServerKey {
  readonly keyId: string;
  /** 64 lowercase hex. */
  readonly publicKey: string;
  /** UTC ms. */
  readonly retiredAt: number;
  readonly files: readonly RecordedRequestFile[];
}

const hex64 = z.string().regex(/^[0-9a-f]{64}$/);
const fileSchema = z.strictObject({
  version: z.literal(RETIRED_SERVER_KEYS_FILE_VERSION),
  retired: z
    .array(
      z.strictObject({
        key_id: hex64,
        public_key: hex64,
        retired_at: z.number().int().nonnegative(),
        files: z
          .array(z.strictObject({ file: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,200}\.json$/), sha256: hex64 }))
          .max(MAX_FILES_PER_KEY),
      }),
    )
    .max(MAX_KEYS),
});

function malformed(path: string, rule: string): WriteDirectoryError {
  return new WriteDirectoryError('MALFORMED', path, rule);
}

/** The retired keys ([] when the file is absent). Owner-only regular file, validated; a key id must match its key. */
export function loadRetiredServerKeys(path: string): readonly RetiredServerKey[] {
  let bytes: Buffer;
  try {
    bytes = readSecretFile(path, { maxBytes: MAX_FILE_BYTES });
  } catch (error) {
    if (error instanceof KeyFileError && error.code === 'NOT_FOUND') return Object.freeze([]);
    throw new WriteDirectoryError('UNSAFE_MODE', path, `must be a regular owner-only file of at most ${MAX_FILE_BYTES} bytes, no symlink`);
  }
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw malformed(path, 'must be JSON');
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success)
    throw malformed(path, `must be {"version": ${RETIRED_SERVER_KEYS_FILE_VERSION}, "retired": [{key_id, public_key, retired_at, files}]}`);
  return Object.freeze(
    parsed.data.retired.map((r, i) => {
      const key = hexToBytes(r.public_key);
      if (!isValidEd25519PublicKey(key) || keyIdOf(key) !== r.key_id)
        throw malformed(path, `entry ${i}: key id is not the key id of a valid public key`);
      return Object.freeze({
        keyId: r.key_id,
        publicKey: r.public_key,
        retiredAt: r.retired_at,
        files: Object.freeze(r.files.map((f) => Object.freeze({ ...f }))),
      });
    }),
  );
}

/** Writes the whole list atomically (temp + fsync + rename, 0600). */
export function saveRetiredServerKeys(path: string, keys: readonly RetiredServerKey[]): void {
  if (!Array.isArray(keys) || keys.length > MAX_KEYS)
    throw new TypeError(`saveRetiredServerKeys: "keys" must be an array of at most ${MAX_KEYS}`);
  const content = `${JSON.stringify(
    {
      version: RETIRED_SERVER_KEYS_FILE_VERSION,
      retired: keys.map((k) => ({
        key_id: k.keyId,
        public_key: k.publicKey,
        retired_at: k.retiredAt,
        files: k.files.map((f: RecordedRequestFile) => ({ file: f.file, sha256: f.sha256 })),
      })),
    },
    null,
    2,
  )}\n`;
  const parsed = fileSchema.safeParse(JSON.parse(content));
  if (!parsed.success) throw new TypeError('saveRetiredServerKeys: an entry is malformed');
  replaceFileAtomically(path, content);
}
