import { CanonicalError, canonicalBytes } from '@pfsense-mcp/canonical';
import { ArtifactFormatError } from './artifact-format-error.js';
import { ALIAS_STATE_CANONICAL_LIMITS, MAX_ALIAS_MEMBERS, MAX_ALIAS_STATE_BYTES } from './artifact-limits.js';

function memberCount(state: unknown): number {
  if (state === null || typeof state !== 'object') return 0;
  const { address, detail } = state as { address?: unknown; detail?: unknown };
  return Math.max(Array.isArray(address) ? address.length : 0, Array.isArray(detail) ? detail.length : 0);
}

/** False only when the state is over a size bound; anything else malformed is the schema's to refuse. */
export function aliasStateWithinBounds(state: unknown): boolean {
  if (memberCount(state) > MAX_ALIAS_MEMBERS) return false;
  try {
    canonicalBytes(state, ALIAS_STATE_CANONICAL_LIMITS);
  } catch (e) {
    if (e instanceof CanonicalError && (e.code === 'MAX_BYTES' || e.code === 'MAX_ARRAY_LENGTH')) return false;
  }
  return true;
}

/**
 * Refuses an alias state beyond the size bounds — more than MAX_ALIAS_MEMBERS members, or canonical JSON
 * larger than MAX_ALIAS_STATE_BYTES — as TOO_LARGE (naming the path, never a value). The request builders
 * check this first, so a server never signs a request the signer or its own inbox would refuse, and a
 * request whose states fit always fits MAX_ARTIFACT_BYTES.
 */
export function checkAliasStateBounds(state: unknown, path: string): void {
  if (memberCount(state) > MAX_ALIAS_MEMBERS) {
    throw new ArtifactFormatError('TOO_LARGE', `${path}.address`, `must have at most ${MAX_ALIAS_MEMBERS} members`);
  }
  if (!aliasStateWithinBounds(state)) {
    throw new ArtifactFormatError('TOO_LARGE', path, `must be at most ${MAX_ALIAS_STATE_BYTES} bytes of canonical JSON`);
  }
}

/** The pre-state a request's review shows, within the bounds (every server-signed request shows one). */
export function checkReviewBounds(review: unknown): void {
  checkAliasStateBounds((review as { pre_state?: unknown } | null)?.pre_state, 'payload.review.pre_state');
}
