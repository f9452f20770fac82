import { Capability } from './capability.js';
import type { MutationPolicyEntry } from './mutation-policy.js';

/**
 * The second mutation (docs/DESIGN.md §5): write-client's FIREWALL_ALIAS_ENTRIES_PATCH — an address alias's
 * complete entry lists, applied to the packet filter — under ALIAS_ENTRIES_WRITE. A literal, like
 * ALIAS_WRITE_POLICY_ENTRY, never derived from the adapter it checks.
 */
export const ALIAS_ENTRIES_WRITE_POLICY_ENTRY: MutationPolicyEntry = Object.freeze({
  capability: Capability.ALIAS_ENTRIES_WRITE,
  endpointSymbol: 'FIREWALL_ALIAS_ENTRIES_PATCH',
  method: 'PATCH',
} as const);
