import { z } from 'zod';

/**
 * The config-history corroboration's value-free facts and their invariants, written once (docs/DESIGN.md §4): the
 * executor's record kept in the contract (libs/contract-store) and the view a reconciliation request shows the
 * operator (config-history-corroboration.ts) are two documents of the same facts. This lib is the lower of the
 * two (contract-store imports it; the signer, which must hold no SQLite code, imports only this one).
 */

/** New-revision times kept or shown (newest first); pfSense keeps 30 backups by default. */
export const MAX_CONFIG_HISTORY_TIMES = 32;

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
export const configHistoryCountSchema = z.number().int().nonnegative().max(MAX_REVISIONS);
export const unixSecondsSchema = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** The fields both documents carry (each adds its own; a digest schema is the caller's, to avoid an import cycle). */
export function configHistoryCoreShape<D extends z.ZodType<string>>(digestSchema: D) {
  return {
    class: z.enum(CONFIG_HISTORY_CLASSES),
    reason: z.enum(CONFIG_HISTORY_UNKNOWN_REASONS).nullable(),
    new_count: configHistoryCountSchema.nullable(),
    new_times: z.array(unixSecondsSchema).max(MAX_CONFIG_HISTORY_TIMES).nullable(),
    descriptions_digest: digestSchema.nullable(),
  };
}

interface ConfigHistoryCore {
  readonly class: ConfigHistoryClass;
  readonly reason: ConfigHistoryUnknownReason | null;
  readonly new_count: number | null;
  readonly new_times: readonly number[] | null;
  readonly descriptions_digest: string | null;
}

/**
 * The invariants of both documents, as one zod check. `marker` is the field given exactly for ONE (the record's
 * `change_kind`, the request's `change_note`).
 */
export function checkConfigHistoryInvariants<T extends ConfigHistoryCore>(marker: keyof T & string) {
  return (c: T, ctx: z.RefinementCtx): void => {
    const fail = (message: string, path: string) => ctx.addIssue({ code: 'custom', message, path: [path] });
    if ((c.class === 'UNKNOWN') !== (c.reason !== null)) fail('reason is given exactly for UNKNOWN', 'reason');
    if ((c.class === 'ONE') !== (c[marker] !== null)) fail(`${marker} is given exactly for ONE`, marker);
    if ((c.new_count === null) !== (c.new_times === null)) fail('new_count and new_times go together', 'new_times');
    if (c.new_times !== null && c.new_times.length !== Math.min(c.new_count ?? 0, MAX_CONFIG_HISTORY_TIMES))
      fail('new_times lists the first new revisions', 'new_times');
    if (c.new_times !== null && !c.new_times.every((t, i) => i === 0 || t <= (c.new_times?.[i - 1] ?? t)))
      fail('new_times is newest first', 'new_times');
    if (c.class === 'NONE' && c.new_count !== 0) fail('NONE has no new revision', 'new_count');
    if (c.class === 'ONE' && c.new_count !== 1) fail('ONE has exactly one new revision', 'new_count');
    if (c.class === 'SEVERAL' && !((c.new_count ?? 0) >= 2)) fail('SEVERAL has two or more', 'new_count');
    if ((c.descriptions_digest === null) !== ((c.new_count ?? 0) === 0))
      fail('descriptions_digest is given exactly when there are new revisions', 'descriptions_digest');
  };
}
