import { readApiKeyFile } from '@pfsense-mcp/crypto';
import { ConfigError } from './config-error.js';

const VARIABLE = 'PFSENSE_API_KEY_FILE';
const REASONS: Readonly<Record<string, string>> = Object.freeze({
  NOT_FOUND: 'does not exist',
  SYMLINK: 'is a symbolic link; point it at the file itself',
  NOT_REGULAR_FILE: 'is not a regular file',
  WRONG_OWNER: 'is not owned by the user running the server',
  UNSAFE_MODE: 'is readable or writable by others; chmod 600 it',
  TOO_LARGE: 'is too large to be an API key file',
  BAD_FORMAT: 'must hold one line with the API key',
});

/**
 * Reads the pfREST API key through crypto's key-file rules (regular file, no symlink, owned by us, mode 0600
 * or 0400). The key itself never appears in an error: only the rule that was broken.
 */
export function readApiKey(path: string): string {
  try {
    return readApiKeyFile(path);
  } catch (error) {
    const code = typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : 'UNREADABLE';
    const reason = REASONS[code] ?? 'cannot be read';
    throw new ConfigError(`API_KEY_FILE_${/^[A-Z_]{1,32}$/.test(code) ? code : 'UNREADABLE'}`, VARIABLE, `${VARIABLE} ${reason}`);
  }
}
