// The executor's config-history corroboration as the contract keeps it (docs/DESIGN.md §3, §4): value-free
// facts only — a class, counts, Unix times (seconds, as pfrest serves them) and a digest of the new
// revisions' descriptions. pfSense's descriptions name users and client addresses, so no text of one is
// ever stored: a revision recognised as pfrest's alias update is kept as the code ALIAS_UPDATE.
import { DigestPurpose, digest, isHex64 } from '@pfsense-mcp/canonical';
import {
  CONFIG_HISTORY_CLASSES,
  CONFIG_HISTORY_UNKNOWN_REASONS,
  MAX_CONFIG_HISTORY_TIMES,
  checkConfigHistoryInvariants,
  configHistoryCoreShape,
  configHistoryCountSchema,
  unixSecondsSchema,
} from '@pfsense-mcp/authorization';
import type { ConfigHistoryClass, ConfigHistoryUnknownReason } from '@pfsense-mcp/authorization';
import { z } from 'zod';

/** The one change kind recorded: the single new revision ends with pfrest's alias-update change note. */
export const ALIAS_UPDATE_CHANGE_KIND = 'ALIAS_UPDATE';

/** New-revision times kept per record (newest first); pfSense keeps 30 backups by default. */
export const MAX_RECORDED_REVISION_TIMES = MAX_CONFIG_HISTORY_TIMES;

export { CONFIG_HISTORY_CLASSES, CONFIG_HISTORY_UNKNOWN_REASONS };
export type { ConfigHistoryClass, ConfigHistoryUnknownReason };

// Local (not recovery-contract's): that module embeds this schema, and an import cycle would not initialise.
const hex64Schema = z.string().refine(isHex64, { message: 'must be 64 lowercase hex digits' });

const core = configHistoryCoreShape(hex64Schema);

/**
 * The record: the shared facts and invariants (libs/authorization's config-history-invariants.ts) and the capture,
 * fields in the order records have always had.
 */
export const configHistoryRecordSchema = z
  .strictObject({
    version: z.literal(1),
    class: core.class,
    reason: core.reason,
    captured_count: configHistoryCountSchema,
    captured_newest_time: unixSecondsSchema.nullable(),
    new_count: core.new_count,
    /** The new revisions' times, newest first (at most MAX_RECORDED_REVISION_TIMES of them). */
    new_times: core.new_times,
    descriptions_digest: core.descriptions_digest,
    change_kind: z.literal(ALIAS_UPDATE_CHANGE_KIND).nullable(),
  })
  .superRefine(checkConfigHistoryInvariants('change_kind'));

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
