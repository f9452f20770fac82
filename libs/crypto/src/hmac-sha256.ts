import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { assertBytes } from './assert-bytes.js';

/** HMAC-SHA256 (RFC 2104). An empty key is refused: it can only be a configuration mistake here. */
export function hmacSha256(key: Uint8Array, data: Uint8Array): Uint8Array {
  assertBytes('hmacSha256', 'key', key);
  assertBytes('hmacSha256', 'data', data);
  if (key.length === 0) throw new RangeError('hmacSha256: "key" must not be empty');
  return hmac(sha256, key, data);
}
