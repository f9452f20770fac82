import { Capability } from './capability.js';
import { assertCapability } from './is-capability.js';
import { READ_CAPABILITIES } from './read-capabilities.js';
import { ReadOnlySet } from '@pfsense-mcp/foundation';

/** What this build has code for: every READ capability plus the two alias writes. */
export const SUPPORTED_CAPABILITIES_THIS_BUILD: ReadonlySet<Capability> = new ReadOnlySet<Capability>([
  ...READ_CAPABILITIES,
  Capability.ALIAS_WRITE,
  Capability.ALIAS_ENTRIES_WRITE,
]);

/**
 * Fact 1 of 3 (docs/DESIGN.md §6): the build contains the capability. Says nothing about whether a
 * profile grants it (isGranted) or whether the running server may use it (isRuntimeEnabled).
 */
export function isImplemented(capability: Capability): boolean {
  assertCapability(capability, 'isImplemented: "capability"');
  return SUPPORTED_CAPABILITIES_THIS_BUILD.has(capability);
}
