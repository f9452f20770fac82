import { MAX_PF_TABLE_DIFFERENCES } from '@pfsense-mcp/authorization';
import type { PfTableState } from '@pfsense-mcp/authorization';
import type { PfTableObservation } from '@pfsense-mcp/executor';

/**
 * The executor's pf table observation in the reconciliation request's wire names, each difference counted and its
 * first MAX_PF_TABLE_DIFFERENCES entries listed (null: the write applies no filter).
 */
export function pfTableStateOf(o: PfTableObservation | null): PfTableState | null {
  if (o === null) return null;
  return Object.freeze({
    status: o.status,
    entry_count: o.entryCount,
    missing_count: o.missing === null ? null : o.missing.length,
    extra_count: o.extra === null ? null : o.extra.length,
    missing: Object.freeze((o.missing ?? []).slice(0, MAX_PF_TABLE_DIFFERENCES)),
    extra: Object.freeze((o.extra ?? []).slice(0, MAX_PF_TABLE_DIFFERENCES)),
  });
}
