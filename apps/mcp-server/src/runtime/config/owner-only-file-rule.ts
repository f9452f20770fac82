/**
 * What a secret file's rule (crypto's readSecretFile: regular file, no symlink, owned by us, mode 0600 or 0400)
 * says when a file breaks it, by KeyFileError code: one text for every owner-only file the configuration names.
 */
const REASONS: Readonly<Record<string, string>> = Object.freeze({
  NOT_FOUND: 'does not exist',
  SYMLINK: 'is a symbolic link; point it at the file itself',
  NOT_REGULAR_FILE: 'is not a regular file',
  WRONG_OWNER: 'is not owned by the user running the server',
  UNSAFE_MODE: 'is readable or writable by others; chmod 600 it',
  TOO_LARGE: 'is too large',
  BAD_FORMAT: 'must hold one line with the API key',
});

/** The broken rule of a failed owner-only read: a stable code (never the error's own text) and its reason. */
export function ownerOnlyFileRule(error: unknown): { readonly code: string; readonly reason: string } {
  const raw = typeof (error as { code?: unknown } | null)?.code === 'string' ? (error as { code: string }).code : 'UNREADABLE';
  const code = /^[A-Z_]{1,32}$/.test(raw) ? raw : 'UNREADABLE';
  return { code, reason: REASONS[code] ?? 'cannot be read' };
}
