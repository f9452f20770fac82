import { Capability } from './capability.js';
import { CAPABILITIES } from './is-capability.js';
import { ReadOnlySet } from '@pfsense-mcp/foundation';

/** Capabilities that change the appliance. ALIAS_WRITE is the only one (docs/DESIGN.md §5). */
export const WRITE_CAPABILITIES: ReadonlySet<Capability> = new ReadOnlySet<Capability>([Capability.ALIAS_WRITE]);

/** Every READ capability: exactly the capabilities named in pfrest/tool-endpoints.json (drift-tested). */
export const READ_CAPABILITIES: ReadonlySet<Capability> = new ReadOnlySet<Capability>(
  CAPABILITIES.filter((c) => !WRITE_CAPABILITIES.has(c)),
);
