import { basename } from 'node:path';
import { assertBytes } from './assert-bytes.js';
import { ED25519_KEY_BYTES, ed25519PublicKeyOf } from './ed25519.js';
import { keyIdOf } from './key-id-of.js';
import { decodeKeyLine, encodeKeyLine } from './key-file-format.js';
import { readSecretFile, writeSecretFile } from './secret-file.js';

/** First token of an Ed25519 private key file: `pfsense-mcp-ed25519-private-key-v1 <base64url 32 bytes>\n`. */
export const ED25519_PRIVATE_KEY_FILE_LABEL = 'pfsense-mcp-ed25519-private-key-v1';

export function readEd25519PrivateKeyFile(path: string): { privateKey: Uint8Array; publicKey: Uint8Array; keyId: string } {
  const buf = readSecretFile(path, { maxBytes: 256 });
  try {
    const privateKey = decodeKeyLine(ED25519_PRIVATE_KEY_FILE_LABEL, buf, basename(path));
    const publicKey = ed25519PublicKeyOf(privateKey);
    return { privateKey, publicKey, keyId: keyIdOf(publicKey) };
  } finally {
    buf.fill(0);
  }
}

export function writeEd25519PrivateKeyFile(path: string, privateKey: Uint8Array): void {
  assertBytes('writeEd25519PrivateKeyFile', 'privateKey', privateKey, ED25519_KEY_BYTES);
  writeSecretFile(path, encodeKeyLine(ED25519_PRIVATE_KEY_FILE_LABEL, privateKey));
}
