// The admin API key: read from --api-key-file when that file exists (a private regular file), else generated (pfrest-style hex)
// and written with mode 0600 — into the given path, or into a fresh private temp directory.
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, constants, fstatSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CodedError } from '@pfsense-mcp/foundation';

export interface ApiKeyMaterial {
  readonly apiKey: string;
  readonly apiKeyFile: string | undefined;
  /** Removes what this module created (the private temp directory), nothing else. */
  cleanup(): void;
}

export class ApiKeyFileError extends CodedError<'API_KEY_FILE'> {
  override readonly name = 'ApiKeyFileError';
  readonly path: string;

  constructor(message: string, path: string) {
    super('API_KEY_FILE', message);
    this.path = path;
  }
}

export function generateApiKey(): string {
  return randomBytes(24).toString('hex');
}

/**
 * Reads an existing key file, refusing anything but a regular file owned by this user with mode 0600 or
 * 0400: a key readable by others, or a symlink/FIFO/device standing in for it, is not a private admin key.
 * The file is opened without following symlinks and checked through the open descriptor (no swap between
 * check and read).
 */
function readKey(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw new ApiKeyFileError('API key file must be a regular file, not a symlink', file);
    throw new ApiKeyFileError('API key file is unreadable', file);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new ApiKeyFileError('API key file must be a regular file', file);
    const mode = st.mode & 0o777;
    if (mode !== 0o600 && mode !== 0o400) {
      throw new ApiKeyFileError(`API key file must be owner-only (mode 0600 or 0400), not ${mode.toString(8).padStart(4, '0')}`, file);
    }
    const uid = process.getuid?.();
    if (uid !== undefined && st.uid !== uid)
      throw new ApiKeyFileError('API key file must be owned by the user running the simulator', file);
    let text: string;
    try {
      text = readFileSync(fd, 'utf8');
    } catch {
      throw new ApiKeyFileError('API key file is unreadable', file);
    }
    const key = text.trim();
    if (key.length < 16 || key.length > 512 || /\s/.test(key))
      throw new ApiKeyFileError('API key file must hold one key of 16–512 non-space characters', file);
    return key;
  } finally {
    closeSync(fd);
  }
}

export function prepareApiKey(options: { apiKey?: string; apiKeyFile?: string; writeTempFile?: boolean }): ApiKeyMaterial {
  if (options.apiKey !== undefined) {
    if (typeof options.apiKey !== 'string' || options.apiKey.length < 16 || /\s/.test(options.apiKey)) {
      throw new TypeError('startSimulator: "apiKey" must be at least 16 non-space characters');
    }
    return { apiKey: options.apiKey, apiKeyFile: options.apiKeyFile, cleanup: () => undefined };
  }
  if (options.apiKeyFile !== undefined) {
    const existing = readKey(options.apiKeyFile);
    if (existing !== undefined) return { apiKey: existing, apiKeyFile: options.apiKeyFile, cleanup: () => undefined };
    const apiKey = generateApiKey();
    writeFileSync(options.apiKeyFile, `${apiKey}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(options.apiKeyFile, 0o600);
    return { apiKey, apiKeyFile: options.apiKeyFile, cleanup: () => undefined };
  }
  const apiKey = generateApiKey();
  if (!options.writeTempFile) return { apiKey, apiKeyFile: undefined, cleanup: () => undefined };
  const dir = mkdtempSync(join(tmpdir(), 'pfsense-sim-'));
  chmodSync(dir, 0o700);
  const file = join(dir, 'api-key');
  writeFileSync(file, `${apiKey}\n`, { mode: 0o600, flag: 'wx' });
  return { apiKey, apiKeyFile: file, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
