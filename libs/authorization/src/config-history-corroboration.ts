import { z } from 'zod';
import { hex64Schema } from './field-schemas.js';

/**
 * pfrest's own change note for an alias update (Model::_update → write_config("Modified Firewall Alias via
 * API")): fixed text, never the alias's description value. The only revision text a request may carry —
 * pfSense's full revision description also names the user and client address, and is never copied.
 */
export const PFREST_ALIAS_UPDATE_NOTE = 'Modified Firewall Alias via API';

/** New-revision times a request lists (newest first); pfSense keeps 30 backups by default. */
export const MAX_CORROBORATION_TIMES = 32;

const count = z.number().int().min(0).max(1000);
const unixSeconds = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/**
 * What pfSense's config history showed after the send, as the server observed it (docs/DESIGN.md §4): the
 * class, how many revisions appeared since the capture before the send, their times (Unix seconds, as
 * pfrest serves them), pfrest's note for ONE, and a digest of the descriptions. Corroboration only: the
 * operator still decides.
 */
export const configHistoryCorroborationSchema = z
  .strictObject({
    class: z.enum(['NONE', 'ONE', 'SEVERAL', 'UNKNOWN']),
    reason: z
      .enum(['READ_FAILED', 'CAPTURED_ENTRY_GONE', 'AMBIGUOUS_ANCHOR', 'EQUAL_TIMESTAMPS', 'OUT_OF_ORDER', 'NOT_AN_ALIAS_UPDATE'])
      .nullable(),
    new_count: count.nullable(),
    new_times: z.array(unixSeconds).max(MAX_CORROBORATION_TIMES).nullable(),
    change_note: z.literal(PFREST_ALIAS_UPDATE_NOTE).nullable(),
    descriptions_digest: hex64Schema.nullable(),
  })
  .refine((c) => (c.class === 'UNKNOWN') === (c.reason !== null), { message: 'reason is given exactly for UNKNOWN', path: ['reason'] })
  .refine((c) => (c.class === 'ONE') === (c.change_note !== null), {
    message: 'change_note is given exactly for ONE',
    path: ['change_note'],
  })
  .refine((c) => (c.new_count === null) === (c.new_times === null), { message: 'new_count and new_times go together', path: ['new_times'] })
  .refine((c) => c.new_times === null || c.new_times.length === Math.min(c.new_count ?? 0, MAX_CORROBORATION_TIMES), {
    message: 'new_times lists the first new revisions',
    path: ['new_times'],
  })
  .refine((c) => c.new_times === null || c.new_times.every((t, i) => i === 0 || t <= (c.new_times?.[i - 1] ?? t)), {
    message: 'new_times is newest first',
    path: ['new_times'],
  })
  .refine((c) => c.class !== 'NONE' || c.new_count === 0, { message: 'NONE has no new revision', path: ['new_count'] })
  .refine((c) => c.class !== 'ONE' || c.new_count === 1, { message: 'ONE has exactly one new revision', path: ['new_count'] })
  .refine((c) => c.class !== 'SEVERAL' || (c.new_count ?? 0) >= 2, { message: 'SEVERAL has two or more', path: ['new_count'] })
  .refine((c) => (c.descriptions_digest === null) === ((c.new_count ?? 0) === 0), {
    message: 'descriptions_digest is given exactly when there are new revisions',
    path: ['descriptions_digest'],
  });

export interface ConfigHistoryCorroboration {
  readonly class: 'NONE' | 'ONE' | 'SEVERAL' | 'UNKNOWN';
  readonly reason:
    'READ_FAILED' | 'CAPTURED_ENTRY_GONE' | 'AMBIGUOUS_ANCHOR' | 'EQUAL_TIMESTAMPS' | 'OUT_OF_ORDER' | 'NOT_AN_ALIAS_UPDATE' | null;
  readonly new_count: number | null;
  readonly new_times: readonly number[] | null;
  readonly change_note: typeof PFREST_ALIAS_UPDATE_NOTE | null;
  readonly descriptions_digest: string | null;
}
