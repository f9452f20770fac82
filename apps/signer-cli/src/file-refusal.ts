import { basename } from 'node:path';
import { KeyFileError } from '@pfsense-mcp/crypto';
import type { KeyFileErrorCode } from '@pfsense-mcp/crypto';
import { ExitCode } from './exit-code.js';
import { renderSafe } from './render-safe.js';
import { SignerError } from './signer-error.js';

/** What each file refusal means, in words that fit any file (a request, a key, an output). */
const RULES: Readonly<Record<KeyFileErrorCode, string>> = Object.freeze({
  NOT_FOUND: 'does not exist',
  SYMLINK: 'must not be a symbolic link',
  NOT_REGULAR_FILE: 'must be a regular file',
  WRONG_OWNER: 'must be owned by you',
  UNSAFE_MODE: 'must be readable by you only (mode 0600 or 0400)',
  TOO_LARGE: 'is too large',
  BAD_FORMAT: 'is not in the expected format',
  EXISTS: 'already exists (never overwritten)',
  CHANGED: 'changed while it was being read',
  IO_ERROR: 'cannot be read or written',
});

/**
 * Runs a file operation on `path` (given as `what`: FILE, --key, --out…); a KeyFileError (unsafe mode,
 * symlink, owner, size, exists…) becomes exit 3 with our own wording — the file's base name and the rule,
 * never its content. The code is added once, by the reporter.
 */
export function withFileRefusal<T>(what: string, path: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof KeyFileError) {
      const errno = e.code === 'IO_ERROR' && e.errno !== null ? ` (${e.errno})` : '';
      throw new SignerError(ExitCode.FILE_REFUSED, e.code, `${what} "${renderSafe(basename(path))}": ${RULES[e.code]}${errno}`);
    }
    throw e;
  }
}
