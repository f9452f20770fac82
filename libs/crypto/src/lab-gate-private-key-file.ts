import { basename } from 'node:path';
import { assertBytes } from './assert-bytes.js';
import { ED25519_KEY_BYTES, ed25519PublicKeyOf } from './ed25519.js';
import { keyIdOf } from './key-id-of.js';
import { decodeKeyLine, encodeKeyLine } from './key-file-format.js';
import { readSecretFile, writeSecretFile } from './secret-file.js';

/**
 * First token of a lab-gate private key file. Its own label, so a lab-gate key is refused wherever an
 * operator key is read (readEd25519PrivateKeyFile) and an operator key is refused where a gate key is read:
 * the role is in the file, not only in its name.
 */
export const LAB_GATE_PRIVATE_KEY_FILE_LABEL = 'pfsense-mcp-lab-gate-ed25519-private-key-v1';

export function readLabGatePrivateKeyFile(path: string): { privateKey: Uint8Array; publicKey: Uint8Array; keyId: string } {
  const buf = readSecretFile(path, { maxBytes: 256 });
  try {
    const privateKey = decodeKeyLine(LAB_GATE_PRIVATE_KEY_FILE_LABEL, buf, basename(path));
    const publicKey = ed25519PublicKeyOf(privateKey);
    return { privateKey, publicKey, keyId: keyIdOf(publicKey) };
  } finally {
    buf.fill(0);
  }
}

export function writeLabGatePrivateKeyFile(path: string, privateKey: Uint8Array): void {
  assertBytes('writeLabGatePrivateKeyFile', 'privateKey', privateKey, ED25519_KEY_BYTES);
  writeSecretFile(path, encodeKeyLine(LAB_GATE_PRIVATE_KEY_FILE_LABEL, privateKey));
}
