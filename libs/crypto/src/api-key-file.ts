import { basename } from 'node:path';
import { KeyFileError } from './key-file-error.js';
import { readSecretFile } from './secret-file.js';

export const API_KEY_FILE_MAX_BYTES = 1024;
const API_KEY_LINE = /^[\x21-\x7e]+\n?$/;

/**
 * The pfSense REST API key: a secret file holding one line of visible ASCII (0x21–0x7E: no spaces, no
 * control characters, no CR), optionally ending in one "\n". Returns the key without the newline.
 */
export function readApiKeyFile(path: string): string {
  const buf = readSecretFile(path, { maxBytes: API_KEY_FILE_MAX_BYTES });
  const text = buf.toString('latin1');
  buf.fill(0);
  if (!API_KEY_LINE.test(text)) {
    throw new KeyFileError('BAD_FORMAT', basename(path), 'must be one line of visible ASCII (0x21-0x7E)');
  }
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}
