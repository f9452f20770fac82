import { createHmac } from 'node:crypto';
import { assertBytes } from './assert-bytes.js';

/**
 * HMAC-SHA256 (RFC 2104) by node:crypto (OpenSSL): the store MACs every row and audit entry on open, and
 * the native primitive is an order of magnitude faster than pure JS. An empty key is refused: it can only
 * be a configuration mistake here.
 */
export function hmacSha256(key: Uint8Array, data: Uint8Array): Uint8Array {
  assertBytes('hmacSha256', 'key', key);
  assertBytes('hmacSha256', 'data', data);
  if (key.length === 0) throw new RangeError('hmacSha256: "key" must not be empty');
  const digest = createHmac('sha256', key).update(data).digest();
  // A plain Uint8Array (not a Buffer subclass), like every other byte string this lib returns.
  return new Uint8Array(digest.buffer, digest.byteOffset, digest.byteLength);
}
