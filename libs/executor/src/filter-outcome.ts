import type { RecoveryContract } from '@pfsense-mcp/contract-store';
import type { RestApiClient } from '@pfsense-mcp/pfsense-read';
import { appliesFilter } from '@pfsense-mcp/write-client';
import type { CheckedAdapter } from './check-adapter.js';
import type { ConfigHistoryEvidence } from './config-history.js';
import { verifyFilterApplied } from './filter-apply.js';

/**
 * After a verified re-read of a write that applies the filter: the outcome class that makes it RECONCILIATION,
 * or null when pf shows the effect. More than one new config revision across the send (someone else wrote
 * too, and our reload applied it) → CONFIG_HISTORY_SEVERAL; the apply still pending or the alias's pf table not
 * holding exactly the re-read's entries within the bound → that class. Never a resend. Writes that do not
 * apply (the description) → null, unchanged.
 */
export async function filterOutcome(
  readClient: RestApiClient,
  a: CheckedAdapter,
  contract: RecoveryContract,
  post: unknown,
  history: ConfigHistoryEvidence,
  delaysMs: readonly number[],
): Promise<string | null> {
  if (!appliesFilter(contract.endpoint_symbol)) return null;
  if (history.class === 'SEVERAL') return 'CONFIG_HISTORY_SEVERAL';
  // The alias's name and entries as the verified re-read holds them (the adapter's snapshot of it).
  const state = a.fn.snapshotOf(post) as { name?: unknown; address?: unknown } | null;
  const name = state?.name;
  const address = state?.address;
  if (typeof name !== 'string' || !Array.isArray(address) || !address.every((e) => typeof e === 'string')) return 'NOT_VERIFIED';
  const seen = await verifyFilterApplied(readClient, name, address, delaysMs);
  return seen.verified ? null : seen.outcomeClass;
}
