// The executor's config-history corroboration as the contract keeps it (docs/DESIGN.md §3, §4): value-free
// facts only — a class, counts, Unix times (seconds, as pfrest serves them) and a digest of the new
// revisions' descriptions. pfSense's descriptions name users and client addresses, so no text of one is
// ever stored: a revision recognised as pfrest's alias update is kept as the code ALIAS_UPDATE.
import { DigestPurpose, digest, isHex64 } from '@pfsense-mcp/canonical';
import { z } from 'zod';

/** The one change kind recorded: the single new revision ends with pfrest's alias-update change note. */
export const ALIAS_UPDATE_CHANGE_KIND = 'ALIAS_UPDATE';

/** New-revision times kept per record (newest first); pfSense keeps 30 backups by default. */
export const MAX_RECORDED_REVISION_TIMES = 32;

export const CONFIG_HISTORY_CLASSES = Object.freeze(['NONE', 'ONE', 'SEVERAL', 'UNKNOWN'] as const);
export type ConfigHistoryClass = (typeof CONFIG_HISTORY_CLASSES)[number];

/** Why a classification is UNKNOWN (value-free codes; see libs/executor's classifier). */
export const CONFIG_HISTORY_UNKNOWN_REASONS = Object.freeze([
  'READ_FAILED',
  'CAPTURED_ENTRY_GONE',
  'AMBIGUOUS_ANCHOR',
  'EQUAL_TIMESTAMPS',
  'OUT_OF_ORDER',
  'NOT_AN_ALIAS_UPDATE',
] as const);
export type ConfigHistoryUnknownReason = (typeof CONFIG_HISTORY_UNKNOWN_REASONS)[number];

/** pfSense keeps at most this many backups; a count above it is not pfSense's history. */
const MAX_REVISIONS = 1000;
const count = z.number().int().nonnegative().max(MAX_REVISIONS);
const unixSeconds = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
// Local (not recovery-contract's): that module embeds this schema, and an import cycle would not initialise.
const hex64Schema = z.string().refine(isHex64, { message: 'must be 64 lowercase hex digits' });

export const configHistoryRecordSchema = z
  .strictObject({
    version: z.literal(1),
    class: z.enum(CONFIG_HISTORY_CLASSES),
    reason: z.enum(CONFIG_HISTORY_UNKNOWN_REASONS).nullable(),
    captured_count: count,
    captured_newest_time: unixSeconds.nullable(),
    new_count: count.nullable(),
    /** The new revisions' times, newest first (at most MAX_RECORDED_REVISION_TIMES of them). */
    new_times: z.array(unixSeconds).max(MAX_RECORDED_REVISION_TIMES).nullable(),
    descriptions_digest: hex64Schema.nullable(),
    change_kind: z.literal(ALIAS_UPDATE_CHANGE_KIND).nullable(),
  })
  .refine((r) => (r.class === 'UNKNOWN') === (r.reason !== null), { message: 'reason is given exactly for UNKNOWN', path: ['reason'] })
  .refine((r) => (r.class === 'ONE') === (r.change_kind !== null), {
    message: 'change_kind is given exactly for ONE',
    path: ['change_kind'],
  })
  .refine((r) => (r.new_count === null) === (r.new_times === null), { message: 'new_count and new_times go together', path: ['new_times'] })
  .refine((r) => r.new_times === null || r.new_times.length === Math.min(r.new_count ?? 0, MAX_RECORDED_REVISION_TIMES), {
    message: 'new_times lists the first new revisions',
    path: ['new_times'],
  })
  .refine((r) => r.class !== 'NONE' || r.new_count === 0, { message: 'NONE has no new revision', path: ['new_count'] })
  .refine((r) => r.class !== 'ONE' || r.new_count === 1, { message: 'ONE has exactly one new revision', path: ['new_count'] })
  .refine((r) => r.class !== 'SEVERAL' || (r.new_count ?? 0) >= 2, { message: 'SEVERAL has two or more', path: ['new_count'] })
  .refine((r) => (r.descriptions_digest === null) === ((r.new_count ?? 0) === 0), {
    message: 'descriptions_digest is given exactly when there are new revisions',
    path: ['descriptions_digest'],
  });

/** One send's corroboration, as stored in the contract record (deep-frozen when loaded). */
export type ConfigHistoryRecord = Readonly<Omit<z.infer<typeof configHistoryRecordSchema>, 'new_times'>> & {
  readonly new_times: readonly number[] | null;
};

/** Validates a record handed to the store (TypeError naming the argument); returns a frozen copy. */
export function checkConfigHistoryRecord(fn: string, value: unknown): ConfigHistoryRecord {
  const parsed = configHistoryRecordSchema.safeParse(value);
  if (!parsed.success)
    throw new TypeError(`${fn}: "configHistory" must be a config-history record (${parsed.error.issues[0]?.path.join('.') ?? ''})`);
  const r = parsed.data;
  return Object.freeze({ ...r, new_times: r.new_times === null ? null : Object.freeze([...r.new_times]) });
}

/** The digest a transition's audit row carries as its evidence digest for this record. */
export function configHistoryRecordDigest(record: ConfigHistoryRecord): string {
  return digest(DigestPurpose.CONFIG_HISTORY_EVIDENCE, { ...record, new_times: record.new_times === null ? null : [...record.new_times] });
}

/**
 * What a transition that ends a send writes for its optional record: the record under the send's own field
 * (forward or rollback) and its digest as the audit row's evidence digest; nothing without a record.
 */
export function configHistoryPatch(
  fn: string,
  side: 'execution' | 'rollback',
  value: unknown,
): {
  readonly patch: { readonly execution_config_history?: ConfigHistoryRecord; readonly rollback_config_history?: ConfigHistoryRecord };
  readonly evidenceDigest: string | null;
} {
  if (value === undefined) return { patch: {}, evidenceDigest: null };
  const record = checkConfigHistoryRecord(fn, value);
  const patch = side === 'execution' ? { execution_config_history: record } : { rollback_config_history: record };
  return { patch, evidenceDigest: configHistoryRecordDigest(record) };
}
