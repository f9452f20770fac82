import { basename } from 'node:path';
import { assertBytes } from './assert-bytes.js';
import { ED25519_KEY_BYTES, ed25519PublicKeyOf } from './ed25519.js';
import { keyIdOf } from './key-id-of.js';
import { decodeKeyLine, encodeKeyLine } from './key-file-format.js';
import { readSecretFile, writeSecretFile } from './secret-file.js';

/**
 * Every private signing key file of this product is one line `<label> <base64url of the 32-byte seed>\n`, owner-only
 * (secret-file.ts). The label says what the key is for, so a key of one kind is refused where another is read: the
 * kind is in the file, not only in its name. This is the one reader and writer; each kind passes its label.
 */
export interface PrivateKeyFileContent {
  readonly privateKey: Uint8Array;
  readonly publicKey: Uint8Array;
  readonly keyId: string;
  /** The label the file carried. */
  readonly label: string;
}

/**
 * Reads a private key file whose label is `label`, or — for a family of labels (the role-bearing v2 Ed25519 files) —
 * the label `label(bytes, fileName)` chooses from the file's own bytes (not kept). The buffer is zeroed either way.
 */
export function readPrivateKeyFile(path: string, label: string | ((bytes: Buffer, fileName: string) => string)): PrivateKeyFileContent {
  const buf = readSecretFile(path, { maxBytes: 256 });
  try {
    const name = basename(path);
    const expected = typeof label === 'string' ? label : label(buf, name);
    const privateKey = decodeKeyLine(expected, buf, name);
    const publicKey = ed25519PublicKeyOf(privateKey);
    return { privateKey, publicKey, keyId: keyIdOf(publicKey), label: expected };
  } finally {
    buf.fill(0);
  }
}

/** Writes a new private key file (never over an existing one) under `label`; `caller` names the API in errors. */
export function writePrivateKeyFile(path: string, label: string, privateKey: Uint8Array, caller: string): void {
  assertBytes(caller, 'privateKey', privateKey, ED25519_KEY_BYTES);
  writeSecretFile(path, encodeKeyLine(label, privateKey));
}

/**
 * The lab-gate key's label. Its own, so a lab-gate key is refused wherever an operator key is read
 * (readEd25519PrivateKeyFile) and an operator key is refused where a gate key is read.
 */
export const LAB_GATE_PRIVATE_KEY_FILE_LABEL = 'pfsense-mcp-lab-gate-ed25519-private-key-v1';

export function readLabGatePrivateKeyFile(path: string): { privateKey: Uint8Array; publicKey: Uint8Array; keyId: string } {
  const { privateKey, publicKey, keyId } = readPrivateKeyFile(path, LAB_GATE_PRIVATE_KEY_FILE_LABEL);
  return { privateKey, publicKey, keyId };
}

export function writeLabGatePrivateKeyFile(path: string, privateKey: Uint8Array): void {
  writePrivateKeyFile(path, LAB_GATE_PRIVATE_KEY_FILE_LABEL, privateKey, 'writeLabGatePrivateKeyFile');
}
