// pfSense's config history as the lab report records it around every mutation (docs/DESIGN.md §7): how many
// revisions, the newest one's time, and a digest of their descriptions — never a description (they name the
// API user and the client address).
import { PFREST_ALIAS_UPDATE_NOTE } from '@pfsense-mcp/authorization';
import { DigestPurpose, digest } from '@pfsense-mcp/canonical';
import { z } from 'zod';

/** What the report shows of the revisions at one moment; null in the report: the history could not be read. */
export interface RevisionSnapshot {
  readonly count: number;
  /** Unix seconds (as pfrest serves them), null for an empty history. */
  readonly newest_time: number | null;
  /** Digest of the descriptions, newest first (the executor's digest purpose for revision descriptions). */
  readonly digest: string;
}

/** Before and after one subject or orchestration mutation. */
export interface RevisionsAround {
  readonly before: RevisionSnapshot | null;
  readonly after: RevisionSnapshot | null;
}

const revisionsSchema = z.array(z.object({ time: z.number().int().nonnegative(), description: z.string().max(4096) })).max(1000);

/** Reads the revisions once (GET only); an unreadable or malformed history is null, never an error. */
export async function takeRevisionSnapshot(read: () => Promise<unknown>): Promise<RevisionSnapshot | null> {
  let data: unknown;
  try {
    data = await read();
  } catch {
    return null;
  }
  const parsed = revisionsSchema.safeParse(data);
  if (!parsed.success) return null;
  const r = parsed.data;
  return Object.freeze({
    count: r.length,
    newest_time: r[0]?.time ?? null,
    digest: digest(
      DigestPurpose.CONFIG_HISTORY_DESCRIPTIONS,
      r.map((x) => x.description),
    ),
  });
}

/** "5 (newest 1768381200, 2f61b6576623fc3d)" — for the Markdown and HTML timelines. */
export function revisionSnapshotText(s: RevisionSnapshot | null): string {
  return s === null ? 'unreadable' : `${s.count} (newest ${s.newest_time ?? '—'}, ${s.digest.slice(0, 16)})`;
}

/** A reconciliation request's corroboration in words, for the report's pending-evidence lines. */
export function corroborationText(
  c: {
    readonly class: string;
    readonly reason: string | null;
    readonly new_count: number | null;
    readonly newest_time: number | null;
    readonly change_note: string | null;
    readonly descriptions_digest: string | null;
  } | null,
): string {
  if (c === null) return 'config history: nothing recorded with the send';
  const count = c.new_count === null ? 'unknown count of' : String(c.new_count);
  const newest = c.newest_time === null ? '' : `, newest at ${c.newest_time}`;
  const note = c.change_note === null ? '' : `, '${c.change_note}'`;
  const reason = c.reason === null ? '' : ` (${c.reason})`;
  const d = c.descriptions_digest === null ? '' : `; descriptions ${c.descriptions_digest.slice(0, 16)}`;
  return `config history: ${c.class}${reason} — ${count} new revision${c.new_count === 1 ? '' : 's'} since the send${newest}${note}${d}`;
}

const revisionSnapshotSchema = z.strictObject({
  count: z.number().int().min(0).max(1000),
  newest_time: z.number().int().min(0).nullable(),
  digest: z.string().regex(/^[0-9a-f]{64}$/),
});

/** A timeline event's `revisions` on the wire (worker IPC) and in a paused run's state file. */
export const revisionsAroundSchema = z.strictObject({
  before: revisionSnapshotSchema.nullable(),
  after: revisionSnapshotSchema.nullable(),
});

/** A signed record's `config_history` (the reconciliation request's corroboration) on the wire and on file. */
export const pendingCorroborationSchema = z.strictObject({
  class: z.enum(['NONE', 'ONE', 'SEVERAL', 'UNKNOWN']),
  reason: z
    .string()
    .regex(/^[A-Z_]{1,32}$/)
    .nullable(),
  new_count: z.number().int().min(0).max(1000).nullable(),
  newest_time: z.number().int().min(0).nullable(),
  change_note: z.literal(PFREST_ALIAS_UPDATE_NOTE).nullable(),
  descriptions_digest: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
});
