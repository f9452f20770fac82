import { hkdfSync } from 'node:crypto';
import { assertBytes } from './assert-bytes.js';

/** Largest HKDF-SHA256 output (RFC 5869 §2.3: L <= 255 * HashLen). */
export const HKDF_SHA256_MAX_LENGTH = 255 * 32;

/** Longest `info` node:crypto's HKDF accepts (OpenSSL's limit); the product's labels are a few dozen bytes. */
export const HKDF_SHA256_MAX_INFO_BYTES = 1024;

/** HKDF-SHA256 (RFC 5869) extract-then-expand by node:crypto (OpenSSL). A string `info` is UTF-8 encoded. */
export function hkdfSha256(ikm: Uint8Array, salt: Uint8Array, info: Uint8Array | string, length: number): Uint8Array {
  assertBytes('hkdfSha256', 'ikm', ikm);
  assertBytes('hkdfSha256', 'salt', salt);
  const infoBytes = typeof info === 'string' ? new Uint8Array(Buffer.from(info, 'utf8')) : info;
  assertBytes('hkdfSha256', 'info', infoBytes);
  if (infoBytes.length > HKDF_SHA256_MAX_INFO_BYTES) {
    throw new RangeError(`hkdfSha256: "info" must be at most ${HKDF_SHA256_MAX_INFO_BYTES} bytes`);
  }
  if (!Number.isSafeInteger(length) || length < 1 || length > HKDF_SHA256_MAX_LENGTH) {
    throw new RangeError(`hkdfSha256: "length" must be an integer in 1..${HKDF_SHA256_MAX_LENGTH}`);
  }
  return new Uint8Array(hkdfSync('sha256', ikm, salt, infoBytes, length));
}
