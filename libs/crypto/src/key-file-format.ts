import { KeyFileError } from './key-file-error.js';

/**
 * Text format of a 32-byte key file: exactly one line `<label> <base64url, no padding, 43 chars>\n`.
 * Internal helpers shared by the Ed25519 private key and master key files.
 */
const B64URL_32 = /^[A-Za-z0-9_-]{43}$/;

export function encodeKeyLine(label: string, key: Uint8Array): string {
  return `${label} ${Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString('base64url')}\n`;
}

export function decodeKeyLine(label: string, content: Buffer, file: string): Uint8Array {
  const rule = `must be exactly one line "${label} <base64url of 32 bytes>" ending in a newline`;
  const prefix = Buffer.from(`${label} `, 'ascii');
  // Exact length: label + space + 43 + "\n"; checked on bytes so nothing is decoded from a wrong-shaped file.
  if (content.length !== prefix.length + 44 || !content.subarray(0, prefix.length).equals(prefix)) {
    throw new KeyFileError('BAD_FORMAT', file, rule);
  }
  if (content[content.length - 1] !== 0x0a) throw new KeyFileError('BAD_FORMAT', file, rule);
  const text = content.subarray(prefix.length, content.length - 1).toString('latin1');
  if (!B64URL_32.test(text)) throw new KeyFileError('BAD_FORMAT', file, rule);
  const key = Buffer.from(text, 'base64url');
  // Canonical encoding only: the last character's unused low bits must be zero (one spelling per key).
  if (key.length !== 32 || key.toString('base64url') !== text) {
    key.fill(0);
    throw new KeyFileError('BAD_FORMAT', file, rule);
  }
  const out = Uint8Array.from(key);
  key.fill(0);
  return out;
}
