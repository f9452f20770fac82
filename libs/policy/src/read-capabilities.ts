import { Capability } from './capability.js';
import { CAPABILITIES } from './is-capability.js';
import { ReadOnlySet } from '@pfsense-mcp/foundation';

/**
 * Capabilities that change the appliance (docs/DESIGN.md §5): an alias's description (ALIAS_WRITE) and an
 * address alias's entries, applied to the packet filter (ALIAS_ENTRIES_WRITE).
 */
export const WRITE_CAPABILITIES: ReadonlySet<Capability> = new ReadOnlySet<Capability>([
  Capability.ALIAS_WRITE,
  Capability.ALIAS_ENTRIES_WRITE,
]);

/** Every READ capability: exactly the capabilities named in pfrest/tool-endpoints.json (drift-tested). */
export const READ_CAPABILITIES: ReadonlySet<Capability> = new ReadOnlySet<Capability>(
  CAPABILITIES.filter((c) => !WRITE_CAPABILITIES.has(c)),
);
