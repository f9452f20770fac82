import { createPrivateKey, createPublicKey } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { assertBytes } from './assert-bytes.js';

/** The only signature algorithm name the product accepts (artifacts carry it; anything else is refused). */
export const ED25519_ALGORITHM = 'Ed25519';
export const ED25519_KEY_BYTES = 32;
export const ED25519_SIGNATURE_BYTES = 64;

/** Fresh raw key pair: 32-byte private seed (RFC 8032 §5.1.5) and 32-byte public key. */
export function generateEd25519KeyPair(): { privateKey: Uint8Array; publicKey: Uint8Array } {
  const { secretKey, publicKey } = ed25519.keygen();
  return { privateKey: secretKey, publicKey };
}

// PKCS#8 DER of an Ed25519 private key (RFC 8410 §7) up to its 32-byte seed, and the SPKI length (12-byte header + key).
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_ED25519_BYTES = 44;

/**
 * The public key of a 32-byte seed (RFC 8032 §5.1.5), derived by node:crypto (OpenSSL): deterministic, so
 * identical to @noble/curves' result (tested), but without noble's first-use precomputation — a write-enabled
 * server derives its request key's public key at start. Signing and strict verification stay on noble.
 */
export function ed25519PublicKeyOf(privateKey: Uint8Array): Uint8Array {
  assertBytes('ed25519PublicKeyOf', 'privateKey', privateKey, ED25519_KEY_BYTES);
  const der = Buffer.concat([PKCS8_ED25519_PREFIX, privateKey]);
  try {
    const spki = createPublicKey(createPrivateKey({ key: der, format: 'der', type: 'pkcs8' })).export({ format: 'der', type: 'spki' });
    if (spki.length !== SPKI_ED25519_BYTES) throw new RangeError('ed25519PublicKeyOf: unexpected public key encoding');
    return new Uint8Array(spki.subarray(SPKI_ED25519_BYTES - ED25519_KEY_BYTES));
  } finally {
    der.fill(0);
  }
}

export function ed25519Sign(privateKey: Uint8Array, message: Uint8Array): Uint8Array {
  assertBytes('ed25519Sign', 'privateKey', privateKey, ED25519_KEY_BYTES);
  assertBytes('ed25519Sign', 'message', message);
  return ed25519.sign(message, privateKey);
}

/**
 * Strict RFC 8032 / FIPS 186-5 verification (`zip215: false`): non-canonical A or R encodings, S >= L and
 * small-order public keys are rejected. Returns false — never throws — on any malformed input, so a caller
 * cannot mistake an exception path for success.
 */
export function ed25519Verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== ED25519_KEY_BYTES) return false;
  if (!(message instanceof Uint8Array)) return false;
  if (!(signature instanceof Uint8Array) || signature.length !== ED25519_SIGNATURE_BYTES) return false;
  try {
    return ed25519.verify(signature, message, publicKey, { zip215: false }) === true;
  } catch {
    return false;
  }
}

/** True for a canonically encoded public key that is on the curve and not of small order. */
export function isValidEd25519PublicKey(publicKey: unknown): publicKey is Uint8Array {
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== ED25519_KEY_BYTES) return false;
  try {
    return !ed25519.Point.fromBytes(publicKey, false).isSmallOrder();
  } catch {
    return false;
  }
}
