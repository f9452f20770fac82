import type { ConfigHistoryCorroboration, PendingReconciliationRequest } from '@pfsense-mcp/authorization';
import { safeTokens } from './render-safe.js';

/**
 * What pfSense's config history showed after the send, as a reconciliation request carries it (docs/DESIGN.md
 * §4): shown next to the observed description, in plain words. It corroborates; the operator still decides.
 */
export interface ConfigHistoryReview {
  /** The request's version: 1 carries no corroboration at all. */
  readonly request_version: 1 | 2 | 3;
  /** NONE, ONE, SEVERAL or UNKNOWN; null when the request carries none. */
  readonly class: ConfigHistoryCorroboration['class'] | null;
  readonly reason: ConfigHistoryCorroboration['reason'];
  readonly new_count: number | null;
  /** The new revisions' times (UTC, ISO 8601), newest first. */
  readonly new_times: readonly string[] | null;
  /** pfrest's fixed note for an alias update (ONE only). */
  readonly change_note: string | null;
  readonly descriptions_digest: string | null;
  /** The line the review shows. */
  readonly summary: string;
}

function when(unixSeconds: number): string {
  return new Date(unixSeconds * 1000)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d{3}Z$/, ' UTC');
}

const UNKNOWN_WORDS: Readonly<Record<NonNullable<ConfigHistoryCorroboration['reason']>, string>> = Object.freeze({
  READ_FAILED: 'it could not be read after the send',
  CAPTURED_ENTRY_GONE: 'the revision captured before the send is gone (rotated out or rewritten)',
  AMBIGUOUS_ANCHOR: 'the revision captured before the send is listed more than once',
  EQUAL_TIMESTAMPS: 'a new revision has the second of the one captured before the send',
  OUT_OF_ORDER: 'its revisions are out of order',
  NOT_AN_ALIAS_UPDATE: "the new revision is not pfrest's alias update",
});

function revisions(n: number): string {
  return n === 1 ? '1 new revision' : `${n} new revisions`;
}

function summaryOf(c: ConfigHistoryCorroboration | null, version: 1 | 2 | 3): string {
  const head = 'config history:';
  if (version === 1) return `${head} not in this request (version 1 requests carry none)`;
  if (c === null) return `${head} nothing was recorded with the send (it was interrupted)`;
  const times = c.new_times ?? [];
  switch (c.class) {
    case 'NONE':
      return `${head} no new revision since the send`;
    case 'ONE':
      // The note is pfrest's fixed text (the schema admits nothing else); escaped like every other value.
      return `${head} 1 new revision since the send, at ${when(times[0] ?? 0)}, '${safeTokens(c.change_note ?? '').join('')}'`;
    case 'SEVERAL': {
      const n = c.new_count ?? times.length;
      const span =
        times.length === n
          ? `from ${when(times[times.length - 1] ?? 0)} to ${when(times[0] ?? 0)}`
          : `the newest at ${when(times[0] ?? 0)}`;
      return `${head} ${revisions(n)} since the send, ${span} (other changes too)`;
    }
    case 'UNKNOWN': {
      const words = UNKNOWN_WORDS[c.reason ?? 'READ_FAILED'];
      if (c.new_count !== null && c.new_count > 0 && times.length > 0) {
        return `${head} unknown: ${revisions(c.new_count)} since the send, the newest at ${when(times[0] ?? 0)}, but ${words}`;
      }
      return `${head} unknown: ${words}`;
    }
  }
}

export function configHistoryReviewOf(request: PendingReconciliationRequest): ConfigHistoryReview {
  const c = request.version === 1 ? null : request.payload.config_history;
  return Object.freeze({
    request_version: request.version,
    class: c?.class ?? null,
    reason: c?.reason ?? null,
    new_count: c?.new_count ?? null,
    new_times: c?.new_times === null || c === null ? null : Object.freeze(c.new_times.map((t) => new Date(t * 1000).toISOString())),
    change_note: c?.change_note ?? null,
    descriptions_digest: c?.descriptions_digest ?? null,
    summary: summaryOf(c, request.version),
  });
}
