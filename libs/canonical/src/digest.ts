import { createHash } from 'node:crypto';
import type { CanonicalLimits } from './canonical-limits.js';
import { canonicalBytes } from './canonicalize.js';
import type { DigestPurpose } from './digest-purpose.js';
import { isDigestPurpose } from './digest-purpose.js';
import { frame } from './frame.js';

/** Product prefix and framing version of every digest; changing either changes every digest. */
export const DIGEST_DOMAIN = 'pfsense-mcp';
export const DIGEST_VERSION = 'v1';

/**
 * SHA-256 over frame(["pfsense-mcp", "v1", purpose, canonicalBytes(value)]) — each part length-prefixed
 * (see `frame`), so the purpose is domain separation that no value can imitate.
 */
export function digestBytes(purpose: DigestPurpose, value: unknown, limits?: Partial<CanonicalLimits>): Uint8Array {
  if (!isDigestPurpose(purpose)) throw new TypeError('digest: "purpose" must be a DigestPurpose');
  const framed = frame([DIGEST_DOMAIN, DIGEST_VERSION, purpose, canonicalBytes(value, limits)]);
  return new Uint8Array(createHash('sha256').update(framed).digest());
}

/** `digestBytes` as 64 lowercase hex characters. */
export function digest(purpose: DigestPurpose, value: unknown, limits?: Partial<CanonicalLimits>): string {
  if (!isDigestPurpose(purpose)) throw new TypeError('digest: "purpose" must be a DigestPurpose');
  const framed = frame([DIGEST_DOMAIN, DIGEST_VERSION, purpose, canonicalBytes(value, limits)]);
  return createHash('sha256').update(framed).digest('hex');
}
