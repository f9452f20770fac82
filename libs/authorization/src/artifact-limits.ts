/** Largest artifact file accepted, in bytes (a pending request with a large alias is well under this). */
export const MAX_ARTIFACT_BYTES = 65_536;

/** Most members (address entries, each with its detail) an alias shown for review may have. */
export const MAX_ALIAS_MEMBERS = 4096;

/**
 * Limits of every canonical encoding of an artifact (file text, signed message): the file bound, and arrays
 * as long as an alias's member list may be.
 */
export const ARTIFACT_CANONICAL_LIMITS = Object.freeze({ maxBytes: MAX_ARTIFACT_BYTES, maxArrayLength: MAX_ALIAS_MEMBERS });

/**
 * How far in the future an `issued_at`/`created_at` may lie before it is refused. The signer and the server
 * run on different machines (ARCHITECTURE §6), so their clocks differ a little; more than this is refused
 * as NOT_YET_VALID rather than trusted.
 */
export const MAX_CLOCK_SKEW_MS = 120_000;

/** Longest validity window (expires_at − issued_at) of any artifact: a signature is never a lasting grant. */
export const MAX_ARTIFACT_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
