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

export function ed25519PublicKeyOf(privateKey: Uint8Array): Uint8Array {
  assertBytes('ed25519PublicKeyOf', 'privateKey', privateKey, ED25519_KEY_BYTES);
  return ed25519.getPublicKey(privateKey);
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
