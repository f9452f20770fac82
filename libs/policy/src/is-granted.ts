import { Capability } from './capability.js';
import { assertCapability } from './is-capability.js';
import { Profile, isProfile } from './profile.js';
import { READ_CAPABILITIES } from './read-capabilities.js';
import { ReadOnlySet } from '@pfsense-mcp/foundation';

function grants(): Readonly<Record<Profile, ReadonlySet<Capability>>> {
  const table = Object.create(null) as Record<Profile, ReadonlySet<Capability>>;
  table[Profile.AUDITOR] = new ReadOnlySet<Capability>(READ_CAPABILITIES);
  // engineer grants nothing on purpose (docs/DESIGN.md §6): a placeholder that can never write or read.
  table[Profile.ENGINEER] = new ReadOnlySet<Capability>([]);
  // Both alias writes: which of them a server offers is the operator's opt-in (PFSENSE_WRITE_CAPABILITIES), on
  // top of the grant, so an upgrade never adds a write tool on its own.
  table[Profile.WRITE_PROTECTED] = new ReadOnlySet<Capability>([
    ...READ_CAPABILITIES,
    Capability.ALIAS_WRITE,
    Capability.ALIAS_ENTRIES_WRITE,
  ]);
  return Object.freeze(table);
}

/** What each profile grants (frozen; for docs and the server's tool listing). */
export const PROFILE_GRANTS: Readonly<Record<Profile, ReadonlySet<Capability>>> = grants();

/** Fact 2 of 3: the profile grants the capability, whether or not it is implemented or usable now. */
export function isGranted(profile: Profile, capability: Capability): boolean {
  if (!isProfile(profile)) throw new TypeError('isGranted: "profile" must be a Profile');
  assertCapability(capability, 'isGranted: "capability"');
  return PROFILE_GRANTS[profile].has(capability);
}
