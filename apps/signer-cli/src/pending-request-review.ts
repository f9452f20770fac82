import { isAliasEntriesChangeReview } from '@pfsense-mcp/authorization';
import type { PendingRequest } from '@pfsense-mcp/authorization';
import { reviewAliasEntriesRequest } from './alias-entries-request-review.js';
import type { AliasEntriesRequestReview } from './alias-entries-request-review.js';
import { reviewAliasDescriptionRequest } from './alias-request-review.js';
import type { AliasDescriptionReview } from './alias-request-review.js';

/** The review of any pending request: one per capability the request formats carry. */
export type RequestReview = AliasDescriptionReview | AliasEntriesRequestReview;

export function isAliasEntriesRequestReview(review: RequestReview): review is AliasEntriesRequestReview {
  return 'capability' in review && review.capability === 'alias_entries';
}

/**
 * Recomputes the capability-specific digests of a request whose server signature, currentness and generic
 * digests were already verified (verifyPendingRequest), and returns the review to show — the change the
 * request carries, by the review it holds. Any mismatch is a refusal (exit 4).
 */
export function reviewPendingRequest(request: PendingRequest): RequestReview {
  const review = request.payload.review;
  return isAliasEntriesChangeReview(review) ? reviewAliasEntriesRequest(request, review) : reviewAliasDescriptionRequest(request, review);
}
