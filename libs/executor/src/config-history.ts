// pfSense's configuration history as corroborating evidence (docs/DESIGN.md §4): captured before the
// reservation, read again after the send, and classified by what appeared in between. It never decides an
// outcome. pfrest v2 serves it read-only at GET /api/v2/diagnostics/config_history/revisions: items
// {id, time, description, version, filesize}, newest first; `id` is the list index and shifts as pfSense
// rotates its backups, so it is never used to recognise an entry.
import { DigestPurpose, digest } from '@pfsense-mcp/canonical';
import { ALIAS_UPDATE_CHANGE_KIND, MAX_RECORDED_REVISION_TIMES, configHistoryRecordDigest } from '@pfsense-mcp/contract-store';
import type { ConfigHistoryClass, ConfigHistoryRecord, ConfigHistoryUnknownReason } from '@pfsense-mcp/contract-store';
import type { RestApiClient } from '@pfsense-mcp/pfsense-read';
import { z } from 'zod';
import { CodedError } from '@pfsense-mcp/foundation';

export const CONFIG_HISTORY_REVISIONS_PATH = '/api/v2/diagnostics/config_history/revisions';

/** pfrest's change note for a FirewallAlias PATCH (Model::_update → write_config("Modified Firewall Alias via API")). */
export const ALIAS_UPDATE_CHANGE_NOTE = 'Modified Firewall Alias via API';
export type { ConfigHistoryClass, ConfigHistoryUnknownReason };

/** pfSense keeps at most this many backups (its "Backup Count" is bounded); more is a malformed answer. */
const MAX_REVISIONS = 1000;

const revisionSchema = z.object({
  id: z.number().int().nonnegative(),
  time: z.number().int().nonnegative(),
  description: z.string().max(4096),
  version: z.string().max(64),
  filesize: z.number().int().nonnegative(),
});
const revisionsSchema = z.array(revisionSchema).max(MAX_REVISIONS);

/** One revision as read. Descriptions hold user names and addresses: they stay in the call frame. */
export type ConfigRevision = z.infer<typeof revisionSchema>;

// UNKNOWN reasons: READ_FAILED (the read after the send failed or was malformed), CAPTURED_ENTRY_GONE (the
// captured newest entry is no longer listed: rotation dropped it, or the history was rewritten),
// AMBIGUOUS_ANCHOR (it is listed more than once), EQUAL_TIMESTAMPS (a newer entry has the captured entry's
// second: pfSense keys backups by second), OUT_OF_ORDER (a "newer" entry is older), NOT_AN_ALIAS_UPDATE
// (exactly one newer entry, but not pfrest's description for an alias update).

/**
 * The value-free evidence recorded with the transition (audit evidence digest) and returned with the outcome:
 * counts, Unix times (seconds, as pfrest serves them) and a digest of the new descriptions — never a
 * description itself.
 */
export interface ConfigHistoryEvidence {
  readonly version: 1;
  readonly class: ConfigHistoryClass;
  readonly reason: ConfigHistoryUnknownReason | null;
  /** Entries listed at the capture. */
  readonly capturedCount: number;
  /** `time` of the newest captured entry (null: the history was empty). */
  readonly capturedNewestTime: number | null;
  /** Entries newer than the capture (null when unknown). */
  readonly newCount: number | null;
  /** `time` of the newest new entry (null when none or unknown). */
  readonly newestTime: number | null;
  /** `time` of the oldest new entry (null when none or unknown). */
  readonly oldestNewTime: number | null;
  /** `time` of each new entry, newest first, the first MAX_RECORDED_REVISION_TIMES (null when unknown). */
  readonly newTimes: readonly number[] | null;
  /** Digest of the new entries' descriptions, newest first (null when none or unknown). */
  readonly descriptionsDigest: string | null;
  /** For ONE: pfrest's change note the entry ends with (a product constant, not appliance text). */
  readonly changeNote: string | null;
}

/** A failed or malformed capture, by class (value-free). */
export type ConfigHistoryFailureClass = 'HTTP_5XX' | 'HTTP_ERROR' | 'TIMEOUT' | 'TOO_LARGE' | 'MALFORMED' | 'UNREACHABLE' | 'READ_FAILED';

export class ConfigHistoryReadError extends CodedError<ConfigHistoryFailureClass> {
  override readonly name = 'ConfigHistoryReadError';
  constructor(readonly failureClass: ConfigHistoryFailureClass) {
    super(failureClass, `config history read failed: ${failureClass}`);
  }
}

function failureClassOf(error: unknown): ConfigHistoryFailureClass {
  const name = error instanceof Error ? error.name : '';
  if (name === 'TransportTimeoutError') return 'TIMEOUT';
  if (name === 'ResponseTooLargeError') return 'TOO_LARGE';
  if (name === 'TransportConnectionError') return 'UNREACHABLE';
  if (name === 'PfrestResponseError') {
    const e = error as { code?: unknown; httpStatus?: unknown };
    if (e.code === 'MALFORMED_RESPONSE' || e.code === 'UNEXPECTED_SHAPE') return 'MALFORMED';
    if (typeof e.httpStatus === 'number' && e.httpStatus >= 500) return 'HTTP_5XX';
    return 'HTTP_ERROR';
  }
  return 'READ_FAILED';
}

/** One GET of the whole history (pfSense keeps a few dozen entries), validated. Throws ConfigHistoryReadError. */
export async function readConfigHistory(readClient: RestApiClient): Promise<readonly ConfigRevision[]> {
  let data: unknown;
  try {
    data = (await readClient.read(CONFIG_HISTORY_REVISIONS_PATH)).data;
  } catch (error) {
    throw new ConfigHistoryReadError(failureClassOf(error));
  }
  const parsed = revisionsSchema.safeParse(data);
  if (!parsed.success) throw new ConfigHistoryReadError('MALFORMED');
  // pfrest lists newest first; an answer that is not in that order is not pfSense's history.
  for (let i = 1; i < parsed.data.length; i += 1) {
    if (parsed.data[i]!.time > parsed.data[i - 1]!.time) throw new ConfigHistoryReadError('MALFORMED');
  }
  return Object.freeze(parsed.data.map((r) => Object.freeze(r)));
}

function sameEntry(a: ConfigRevision, b: ConfigRevision): boolean {
  return a.time === b.time && a.description === b.description && a.version === b.version && a.filesize === b.filesize;
}

function evidence(
  captured: readonly ConfigRevision[],
  fields: Partial<ConfigHistoryEvidence> & Pick<ConfigHistoryEvidence, 'class'>,
): ConfigHistoryEvidence {
  return Object.freeze({
    version: 1,
    reason: null,
    capturedCount: captured.length,
    capturedNewestTime: captured[0]?.time ?? null,
    newCount: null,
    newestTime: null,
    oldestNewTime: null,
    newTimes: null,
    descriptionsDigest: null,
    changeNote: null,
    ...fields,
  });
}

/** The evidence when the read after the send failed. */
export function unreadableHistoryEvidence(captured: readonly ConfigRevision[]): ConfigHistoryEvidence {
  return evidence(captured, { class: 'UNKNOWN', reason: 'READ_FAILED' });
}

/**
 * Classifies what appeared between the capture and the read after the send.
 *
 * "Newer" is defined by position, anchored on content: the anchor is the newest captured entry, recognised
 * by all four of pfrest's fields (time, description, version, filesize — never the shifting id). The anchor
 * must appear exactly once in the later list; every entry listed before it is newer, and each must carry a
 * strictly later `time` (pfSense names a backup after its second, so an equal second cannot be told from a
 * replaced entry). With an empty capture every later entry is newer. Then: no newer entry → NONE; exactly one,
 * ending with pfrest's alias-update note → ONE; two or more → SEVERAL (other writes happened too); anything
 * else → UNKNOWN with its reason.
 */
export function classifyConfigHistory(captured: readonly ConfigRevision[], after: readonly ConfigRevision[]): ConfigHistoryEvidence {
  let newer: readonly ConfigRevision[];
  const anchor = captured[0];
  if (anchor === undefined) {
    newer = after;
  } else {
    if (captured.filter((r) => sameEntry(r, anchor)).length !== 1 || after.filter((r) => sameEntry(r, anchor)).length > 1) {
      return evidence(captured, { class: 'UNKNOWN', reason: 'AMBIGUOUS_ANCHOR' });
    }
    const at = after.findIndex((r) => sameEntry(r, anchor));
    if (at < 0) return evidence(captured, { class: 'UNKNOWN', reason: 'CAPTURED_ENTRY_GONE' });
    newer = after.slice(0, at);
    if (newer.some((r) => r.time === anchor.time)) return evidence(captured, { class: 'UNKNOWN', reason: 'EQUAL_TIMESTAMPS' });
    if (newer.some((r) => r.time < anchor.time)) return evidence(captured, { class: 'UNKNOWN', reason: 'OUT_OF_ORDER' });
  }
  if (newer.length === 0) return evidence(captured, { class: 'NONE', newCount: 0, newTimes: Object.freeze([]) });
  const facts = {
    newCount: newer.length,
    newTimes: Object.freeze(newer.slice(0, MAX_RECORDED_REVISION_TIMES).map((r) => r.time)),
    newestTime: newer[0]!.time,
    oldestNewTime: newer[newer.length - 1]!.time,
    descriptionsDigest: digest(
      DigestPurpose.CONFIG_HISTORY_DESCRIPTIONS,
      newer.map((r) => r.description),
    ),
  };
  if (newer.length >= 2) return evidence(captured, { class: 'SEVERAL', ...facts });
  if (newer[0]!.description.trimEnd().endsWith(ALIAS_UPDATE_CHANGE_NOTE)) {
    return evidence(captured, { class: 'ONE', ...facts, changeNote: ALIAS_UPDATE_CHANGE_NOTE });
  }
  return evidence(captured, { class: 'UNKNOWN', reason: 'NOT_AN_ALIAS_UPDATE', ...facts });
}

/** The evidence as the contract record keeps it (docs/DESIGN.md §3): the same value-free facts, snake case. */
export function configHistoryRecordOf(e: ConfigHistoryEvidence): ConfigHistoryRecord {
  return Object.freeze({
    version: 1,
    class: e.class,
    reason: e.reason,
    captured_count: e.capturedCount,
    captured_newest_time: e.capturedNewestTime,
    new_count: e.newCount,
    new_times: e.newTimes,
    descriptions_digest: e.descriptionsDigest,
    // The record keeps a code, not the note: no text of a revision description is stored.
    change_kind: e.changeNote === null ? null : ALIAS_UPDATE_CHANGE_KIND,
  });
}

/** The digest the audit row carries as its evidence digest (the store computes it from the record it keeps). */
export function configHistoryEvidenceDigest(e: ConfigHistoryEvidence): string {
  return configHistoryRecordDigest(configHistoryRecordOf(e));
}
