import { assertObject } from '@pfsense-mcp/foundation';
import type { Capability } from './capability.js';
import { assertCapability } from './is-capability.js';
import { isGranted } from './is-granted.js';
import { isImplemented } from './is-implemented.js';
import { isProfile } from './profile.js';
import type { Profile } from './profile.js';
import { WRITE_CAPABILITIES } from './read-capabilities.js';

export interface RuntimeFacts {
  readonly profile: Profile;
  /** The complete write runtime (store, keys, pinned authorities, inbox/outbox) was built without error. */
  readonly writeRuntimeReady: boolean;
  /** The capability's endpoint is in WriteEndpoints and the MutationPolicy allow-list. */
  readonly endpointAllowListed: boolean;
}

/**
 * Fact 3 of 3: the running server may offer the capability now. A READ capability needs only to be
 * implemented and granted. A WRITE capability additionally needs the write runtime and the allow-listed
 * endpoint (docs/DESIGN.md §1: any one missing → the tool is absent, not degraded).
 */
export function isRuntimeEnabled(capability: Capability, runtime: RuntimeFacts): boolean {
  assertCapability(capability, 'isRuntimeEnabled: "capability"');
  assertObject(runtime, 'isRuntimeEnabled: "runtime"');
  if (!isProfile(runtime.profile)) throw new TypeError('isRuntimeEnabled: "runtime.profile" must be a Profile');
  // Strict booleans: a truthy string such as "false" must not enable a write.
  if (typeof runtime.writeRuntimeReady !== 'boolean') {
    throw new TypeError('isRuntimeEnabled: "runtime.writeRuntimeReady" must be a boolean');
  }
  if (typeof runtime.endpointAllowListed !== 'boolean') {
    throw new TypeError('isRuntimeEnabled: "runtime.endpointAllowListed" must be a boolean');
  }
  if (!isImplemented(capability) || !isGranted(runtime.profile, capability)) return false;
  if (!WRITE_CAPABILITIES.has(capability)) return true;
  return runtime.writeRuntimeReady && runtime.endpointAllowListed;
}
