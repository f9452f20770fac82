import { DigestPurpose, bytesToHex, digest } from '@pfsense-mcp/canonical';
import { assertBytes } from './assert-bytes.js';
import { ED25519_ALGORITHM, ED25519_KEY_BYTES } from './ed25519.js';

/** Key id = digest(KEY_ID, { algorithm: "Ed25519", public_key: <lowercase hex> }) — 64 lowercase hex. */
export function keyIdOf(publicKey: Uint8Array): string {
  assertBytes('keyIdOf', 'publicKey', publicKey, ED25519_KEY_BYTES);
  return digest(DigestPurpose.KEY_ID, { algorithm: ED25519_ALGORITHM, public_key: bytesToHex(publicKey) });
}
