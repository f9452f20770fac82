import { ValidationError } from './validation-error.js';

const HEX_BYTES = /^(?:[0-9a-f]{2})*$/;

/** Lowercase hex of `b`. */
export function bytesToHex(b: Uint8Array): string {
  if (!(b instanceof Uint8Array)) throw new TypeError('bytesToHex: "b" must be a Uint8Array');
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
}

/**
 * Bytes of a lowercase, even-length hex string. Uppercase is refused on purpose: the product writes only
 * lowercase, and one spelling per value keeps ids and digests comparable as strings.
 */
export function hexToBytes(hex: string): Uint8Array {
  if (typeof hex !== 'string') throw new TypeError('hexToBytes: "hex" must be a string');
  if (!HEX_BYTES.test(hex)) throw new ValidationError('NOT_HEX', 'hex', 'must be even-length lowercase hex');
  return new Uint8Array(Buffer.from(hex, 'hex'));
}
