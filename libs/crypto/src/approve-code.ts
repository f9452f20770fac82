import { hexToBytes } from '@pfsense-mcp/canonical';
import { assertBytes } from './assert-bytes.js';
import type { AuthorityRole } from './authority-role.js';
import { ED25519_KEY_BYTES } from './ed25519.js';
import { hkdfSha256 } from './hkdf-sha256.js';
import { hmacSha256 } from './hmac-sha256.js';

/** HKDF `info` prefix of the approval-code key; the role's name follows it directly (the roles are a closed set). */
export const APPROVE_CODE_INFO = 'pfsense-mcp approve-code v1';

/** Hex characters of the approval code the operator types or passes to `--approve`. */
export const APPROVE_CODE_LENGTH = 12;

const HEX64 = /^[0-9a-f]{64}$/;

/**
 * The approval code of one request: the first 12 hex of
 * `HMAC-SHA256(HKDF-SHA256(seed, salt "", info "pfsense-mcp approve-code v1" ‖ role, 32), request digest bytes)`.
 * Only the holder of the operator's private key for that role can compute it, so a server host (or an assistant
 * with a shell on it) that holds only public keys cannot hand the operator a ready-made approval
 * (docs/DESIGN.md §10). The seed is never used for anything but this derivation here.
 */
export function approveCodeOf(privateKeySeed: Uint8Array, role: AuthorityRole, requestDigestHex: string): string {
  assertBytes('approveCodeOf', 'privateKeySeed', privateKeySeed, ED25519_KEY_BYTES);
  if (!HEX64.test(requestDigestHex)) throw new TypeError('approveCodeOf: "requestDigestHex" must be 64 lowercase hex');
  const key = hkdfSha256(privateKeySeed, new Uint8Array(0), `${APPROVE_CODE_INFO}${role}`, 32);
  try {
    return Buffer.from(hmacSha256(key, hexToBytes(requestDigestHex)))
      .toString('hex')
      .slice(0, APPROVE_CODE_LENGTH);
  } finally {
    key.fill(0);
  }
}
