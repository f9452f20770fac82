import { Capability } from './capability.js';
import { MutationPolicy } from './mutation-policy.js';
import type { MutationPolicyEntry } from './mutation-policy.js';

/**
 * The one mutation this build performs (docs/DESIGN.md §5): write-client's FIREWALL_ALIAS_PATCH, under
 * ALIAS_WRITE. Written here as a literal, not derived from the adapter: the executor checks the adapter's
 * request against the policy, so the policy must not come from the adapter.
 */
export const ALIAS_WRITE_POLICY_ENTRY: MutationPolicyEntry = Object.freeze({
  capability: Capability.ALIAS_WRITE,
  endpointSymbol: 'FIREWALL_ALIAS_PATCH',
  method: 'PATCH',
} as const);

/** The mutation policy of this build: exactly ALIAS_WRITE_POLICY_ENTRY. */
export const ALIAS_WRITE_POLICY: MutationPolicy = MutationPolicy.of([ALIAS_WRITE_POLICY_ENTRY]);
