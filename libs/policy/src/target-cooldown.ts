import { Capability } from './capability.js';
import type { RateLimits } from './rate-limits.js';

/**
 * The capabilities whose targets have no cooldown after an outcome (docs/DESIGN.md §3). The cooldown keeps one
 * value from flapping (a description renamed back and forth); an alias's entries are independent members an
 * operator changes in bursts — block one address, then the next, unblock a mistake — each change still two
 * human signatures, verified in pf and counted in the per-target PREPARE window.
 */
const NO_TARGET_COOLDOWN: ReadonlySet<string> = new Set([Capability.ALIAS_ENTRIES_WRITE]);

/** The quiet time after an outcome on a target of `capability`: the limits' cooldown, or 0 for a capability without one. */
export function targetCooldownMsOf(capability: string, limits: RateLimits): number {
  return NO_TARGET_COOLDOWN.has(capability) ? 0 : limits.targetCooldownMs;
}
