/**
 * Most members (address entries, each with its detail) an alias shown for review may have — the one bound
 * of alias size shared by the server's outbox, its inbox and the signer. A 20,000-member blocklist fits.
 */
export const MAX_ALIAS_MEMBERS = 20_000;

/**
 * Largest canonical JSON of one alias state {name, type, descr, address[], detail[]} a request may carry:
 * 4 MiB, so 20,000 members whose address and detail together average up to 200 bytes (JSON-encoded UTF-8;
 * pfSense's own generated detail, "Entry added <date>", is 43 bytes, an IPv6 CIDR at most 43).
 */
export const MAX_ALIAS_STATE_BYTES = 4 * 1024 * 1024;

/** Room for everything in a request besides its alias states (envelope, intent, digests, new description). */
const REQUEST_OVERHEAD_BYTES = 128 * 1024;

/**
 * Largest artifact file accepted, in bytes: a reconciliation request carries two alias states (the pre-state
 * and the observed one), so 2 × MAX_ALIAS_STATE_BYTES + 128 KiB = 8,519,680 bytes.
 */
export const MAX_ARTIFACT_BYTES = 2 * MAX_ALIAS_STATE_BYTES + REQUEST_OVERHEAD_BYTES;

/**
 * Limits of every canonical encoding of an artifact (file text, signed message): the file bound, and arrays
 * as long as an alias's member list may be.
 */
export const ARTIFACT_CANONICAL_LIMITS = Object.freeze({ maxBytes: MAX_ARTIFACT_BYTES, maxArrayLength: MAX_ALIAS_MEMBERS });

/** Limits of the canonical encoding of one alias state (see MAX_ALIAS_STATE_BYTES). */
export const ALIAS_STATE_CANONICAL_LIMITS = Object.freeze({ maxBytes: MAX_ALIAS_STATE_BYTES, maxArrayLength: MAX_ALIAS_MEMBERS });

/**
 * How far in the future an `issued_at`/`created_at` may lie before it is refused. The signer and the server
 * run on different machines (docs/DESIGN.md §6), so their clocks differ a little; more than this is refused
 * as NOT_YET_VALID rather than trusted.
 */
export const MAX_CLOCK_SKEW_MS = 120_000;

/** Longest validity window (expires_at − issued_at) of any artifact: a signature is never a lasting grant. */
export const MAX_ARTIFACT_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
