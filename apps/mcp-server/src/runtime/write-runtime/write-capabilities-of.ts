import { AliasDescriptionAdapter, createAliasEntriesAdapter } from '@pfsense-mcp/adapters';
import { MAX_ALIAS_MEMBERS } from '@pfsense-mcp/authorization';
import { CapabilityRegistry } from '@pfsense-mcp/coordinator';
import type { WriteCapability } from '@pfsense-mcp/coordinator';
import { ALIAS_ENTRIES_WRITE_POLICY_ENTRY, ALIAS_WRITE_POLICY_ENTRY, MutationPolicy } from '@pfsense-mcp/policy';
import type { WriteEnvironment } from '../config/load-config.js';
import { DEFAULT_WRITE_CAPABILITIES, parseEntriesBounds } from '../config/parse-write-capabilities.js';
import type { WriteCapabilityName } from '../config/parse-write-capabilities.js';

/** The closed capability registry and the mutation policy of the capabilities the operator enabled. */
export interface EnabledWriteCapabilities {
  readonly names: readonly WriteCapabilityName[];
  readonly registry: CapabilityRegistry;
  readonly policy: MutationPolicy;
}

/** The capabilities PFSENSE_WRITE_CAPABILITIES names (default: the description only). */
export function enabledWriteCapabilityNames(env: WriteEnvironment | undefined): readonly WriteCapabilityName[] {
  return env?.capabilities ?? DEFAULT_WRITE_CAPABILITIES;
}

/**
 * The composition root's one decision of what it writes (docs/DESIGN.md §6): an adapter and an allow-list entry
 * per enabled capability, nothing else. The entries adapter is built with the operator's bounds and the
 * authorization library's alias bound (20,000 members after the change). A bound the adapter refuses (a
 * protected network that is not canonical) throws TypeError: the write runtime is then not built.
 */
export function writeCapabilitiesOf(env: WriteEnvironment | undefined): EnabledWriteCapabilities {
  const names = enabledWriteCapabilityNames(env);
  const adapters: WriteCapability[] = [];
  const entries: (typeof ALIAS_WRITE_POLICY_ENTRY)[] = [];
  if (names.includes('alias_description')) {
    adapters.push(AliasDescriptionAdapter);
    entries.push(ALIAS_WRITE_POLICY_ENTRY);
  }
  if (names.includes('alias_entries')) {
    const bounds = env?.entriesBounds ?? parseEntriesBounds({});
    adapters.push(createAliasEntriesAdapter({ ...bounds, maxMembers: MAX_ALIAS_MEMBERS }));
    entries.push(ALIAS_ENTRIES_WRITE_POLICY_ENTRY);
  }
  return Object.freeze({ names, registry: CapabilityRegistry.of(adapters), policy: MutationPolicy.of(entries) });
}
