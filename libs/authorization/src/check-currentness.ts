import { MAX_CLOCK_SKEW_MS } from './artifact-limits.js';
import { ArtifactVerificationError } from './artifact-verification-error.js';
import type { SignedArtifact } from './artifact.js';

/**
 * Check 2: the artifact is current at `nowMs` (an injected clock, integer UTC ms): `now < expires_at`
 * (exclusive), and `issued_at` is not more than MAX_CLOCK_SKEW_MS ahead of now — a document
 * "from the future" means a wrong clock or a forgery attempt, and is refused as NOT_YET_VALID.
 */
export function checkCurrentness(artifact: SignedArtifact, nowMs: number): void {
  if (typeof nowMs !== 'number' || !Number.isSafeInteger(nowMs) || nowMs < 0) {
    throw new TypeError('checkCurrentness: "nowMs" must be a non-negative safe integer');
  }
  const { issued_at, expires_at } = artifact.payload;
  if (issued_at > nowMs + MAX_CLOCK_SKEW_MS) {
    throw new ArtifactVerificationError('NOT_YET_VALID', artifact.kind, 'issued_at is in the future');
  }
  if (!(nowMs < expires_at)) throw new ArtifactVerificationError('EXPIRED', artifact.kind, 'has expired');
}
