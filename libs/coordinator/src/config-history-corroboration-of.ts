import { PFREST_ALIAS_UPDATE_NOTE } from '@pfsense-mcp/authorization';
import type { ConfigHistoryCorroboration } from '@pfsense-mcp/authorization';
import type { ConfigHistoryRecord } from '@pfsense-mcp/contract-store';

/**
 * The corroboration a reconciliation request shows (docs/DESIGN.md §4, §6), from the record the contract
 * kept with its send: class, new-revision count and times, the descriptions digest — and, for exactly one
 * recognised alias update, pfrest's own fixed note (a product constant: no text of the appliance's revision
 * description, and never an alias description value). Null when the send recorded nothing.
 */
export function configHistoryCorroborationOf(record: ConfigHistoryRecord | null): ConfigHistoryCorroboration | null {
  if (record === null) return null;
  return Object.freeze({
    class: record.class,
    reason: record.reason,
    new_count: record.new_count,
    new_times: record.new_times === null ? null : Object.freeze([...record.new_times]),
    change_note: record.change_kind === 'ALIAS_UPDATE' ? PFREST_ALIAS_UPDATE_NOTE : null,
    descriptions_digest: record.descriptions_digest,
  });
}
