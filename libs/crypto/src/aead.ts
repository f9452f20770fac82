import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { frame } from '@pfsense-mcp/canonical';
import { AeadError } from './aead-error.js';
import { assertBytes } from './assert-bytes.js';

/**
 * Envelope v1: version (1 byte, 0x01) | nonce (12 random bytes) | ciphertext | tag (16 bytes).
 * AES-256-GCM; the GCM additional data is frame(["pfsense-mcp/aead", version byte, associatedData]), so the
 * version byte is authenticated too and caller AAD cannot be confused with the prefix.
 */
export const AEAD_ENVELOPE_VERSION = 0x01;
export const AEAD_KEY_BYTES = 32;
export const AEAD_NONCE_BYTES = 12;
export const AEAD_TAG_BYTES = 16;
const HEADER_BYTES = 1 + AEAD_NONCE_BYTES;
const AAD_DOMAIN = 'pfsense-mcp/aead';

function gcmAad(associatedData: Uint8Array): Uint8Array {
  return frame([AAD_DOMAIN, new Uint8Array([AEAD_ENVELOPE_VERSION]), associatedData]);
}

export function aeadSeal(key: Uint8Array, plaintext: Uint8Array, associatedData: Uint8Array): Uint8Array {
  assertBytes('aeadSeal', 'key', key, AEAD_KEY_BYTES);
  assertBytes('aeadSeal', 'plaintext', plaintext);
  assertBytes('aeadSeal', 'associatedData', associatedData);
  const nonce = randomBytes(AEAD_NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: AEAD_TAG_BYTES });
  cipher.setAAD(gcmAad(associatedData));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  const out = Buffer.concat([Buffer.from([AEAD_ENVELOPE_VERSION]), nonce, body, cipher.getAuthTag()]);
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}

export function aeadOpen(key: Uint8Array, envelope: Uint8Array, associatedData: Uint8Array): Uint8Array {
  assertBytes('aeadOpen', 'key', key, AEAD_KEY_BYTES);
  assertBytes('aeadOpen', 'envelope', envelope);
  assertBytes('aeadOpen', 'associatedData', associatedData);
  if (envelope.length < HEADER_BYTES + AEAD_TAG_BYTES) throw new AeadError('MALFORMED', 'envelope is too short');
  if (envelope[0] !== AEAD_ENVELOPE_VERSION) throw new AeadError('UNSUPPORTED_VERSION', 'unknown envelope version');
  const nonce = envelope.subarray(1, HEADER_BYTES);
  const body = envelope.subarray(HEADER_BYTES, envelope.length - AEAD_TAG_BYTES);
  const tag = envelope.subarray(envelope.length - AEAD_TAG_BYTES);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, nonce, { authTagLength: AEAD_TAG_BYTES });
    decipher.setAAD(gcmAad(associatedData));
    decipher.setAuthTag(tag);
    // final() verifies the tag; nothing decrypted is returned before it succeeds.
    const out = Buffer.concat([decipher.update(body), decipher.final()]);
    return new Uint8Array(out.buffer, out.byteOffset, out.length);
  } catch {
    throw new AeadError('AUTHENTICATION_FAILED', 'envelope does not authenticate under this key and associated data');
  }
}
