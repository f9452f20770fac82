import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import { assertBytes } from './assert-bytes.js';
import { MASTER_KEY_BYTES } from './derive-store-keys.js';
import { decodeKeyLine, encodeKeyLine } from './key-file-format.js';
import { readSecretFile, writeSecretFile } from './secret-file.js';

/** First token of a master key file: `pfsense-mcp-master-key-v1 <base64url 32 bytes>\n`. */
export const MASTER_KEY_FILE_LABEL = 'pfsense-mcp-master-key-v1';

/** 32 bytes from the OS CSPRNG. */
export function generateMasterKey(): Uint8Array {
  return new Uint8Array(randomBytes(MASTER_KEY_BYTES));
}

export function readMasterKeyFile(path: string): Uint8Array {
  const buf = readSecretFile(path, { maxBytes: 256 });
  try {
    return decodeKeyLine(MASTER_KEY_FILE_LABEL, buf, basename(path));
  } finally {
    buf.fill(0);
  }
}

export function writeMasterKeyFile(path: string, key: Uint8Array): void {
  assertBytes('writeMasterKeyFile', 'key', key, MASTER_KEY_BYTES);
  writeSecretFile(path, encodeKeyLine(MASTER_KEY_FILE_LABEL, key));
}
