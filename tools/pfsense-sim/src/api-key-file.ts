// The admin API key: read from --api-key-file when that file exists, else generated (pfrest-style hex)
// and written with mode 0600 — into the given path, or into a fresh private temp directory.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ApiKeyMaterial {
  readonly apiKey: string;
  readonly apiKeyFile: string | undefined;
  /** Removes what this module created (the private temp directory), nothing else. */
  cleanup(): void;
}

export class ApiKeyFileError extends Error {
  override readonly name = 'ApiKeyFileError';
  readonly path: string;

  constructor(message: string, path: string) {
    super(message);
    this.path = path;
  }
}

export function generateApiKey(): string {
  return randomBytes(24).toString('hex');
}

function readKey(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ApiKeyFileError('API key file is unreadable', file);
  }
  const key = text.trim();
  if (key.length < 16 || key.length > 512 || /\s/.test(key)) throw new ApiKeyFileError('API key file must hold one key of 16–512 non-space characters', file);
  return key;
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
