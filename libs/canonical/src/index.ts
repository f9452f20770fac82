// Public API of @pfsense-mcp/canonical: explicit named exports only.
export { CanonicalError } from './canonical-error.js';
export type { CanonicalErrorCode } from './canonical-error.js';
export { DEFAULT_CANONICAL_LIMITS } from './canonical-limits.js';
export type { CanonicalLimits } from './canonical-limits.js';
export { canonicalize, canonicalBytes } from './canonicalize.js';
export type { CanonicalValue } from './canonicalize.js';
export { DigestPurpose, isDigestPurpose } from './digest-purpose.js';
export { digest, digestBytes, DIGEST_DOMAIN, DIGEST_VERSION } from './digest.js';
export { frame } from './frame.js';
export { bytesToHex, hexToBytes } from './hex.js';
export { isWellFormed } from './is-well-formed.js';
export { ValidationError } from './validation-error.js';
export type { ValidationErrorCode } from './validation-error.js';
export { SAFE_TOKEN_MAX_LENGTH, assertSafeToken, isSafeToken } from './safe-token.js';
export { assertHex64, isHex64 } from './hex64.js';
export { assertNfc, isNfc } from './assert-nfc.js';
export type { CanonicalLibError } from './canonical-lib-error.js';
