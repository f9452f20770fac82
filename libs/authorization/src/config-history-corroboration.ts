import { z } from 'zod';
import type { ConfigHistoryClass, ConfigHistoryUnknownReason } from './config-history-invariants.js';
import { checkConfigHistoryInvariants, configHistoryCoreShape } from './config-history-invariants.js';
import { hex64Schema } from './field-schemas.js';

/**
 * pfrest's own change note for an alias update (Model::_update → write_config("Modified Firewall Alias via
 * API")): fixed text, never the alias's description value. The only revision text a request may carry —
 * pfSense's full revision description also names the user and client address, and is never copied.
 */
export const PFREST_ALIAS_UPDATE_NOTE = 'Modified Firewall Alias via API';

/**
 * What pfSense's config history showed after the send, as the server observed it (docs/DESIGN.md §4): the
 * class, how many revisions appeared since the capture before the send, their times (Unix seconds, as
 * pfrest serves them), pfrest's note for ONE, and a digest of the descriptions. Corroboration only: the
 * operator still decides. The facts and invariants are config-history-invariants.ts's, shared with the record.
 */
export const configHistoryCorroborationSchema = z
  .strictObject({
    ...configHistoryCoreShape(hex64Schema),
    change_note: z.literal(PFREST_ALIAS_UPDATE_NOTE).nullable(),
  })
  .superRefine(checkConfigHistoryInvariants('change_note'));

export interface ConfigHistoryCorroboration {
  readonly class: ConfigHistoryClass;
  readonly reason: ConfigHistoryUnknownReason | null;
  readonly new_count: number | null;
  readonly new_times: readonly number[] | null;
  readonly change_note: typeof PFREST_ALIAS_UPDATE_NOTE | null;
  readonly descriptions_digest: string | null;
}
