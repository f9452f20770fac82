import { assertObject } from '@pfsense-mcp/foundation';
import type { Capability } from './capability.js';
import { isCapability } from './is-capability.js';
import { RateRefusalReason } from './rate-decision.js';
import type { RateDecision } from './rate-decision.js';
import { assertRateLimits } from './rate-limits.js';
import type { RateLimits } from './rate-limits.js';
import type { RateWindowState } from './rate-window-state.js';
import { advance, assertCount, assertNowMs, assertState, isClockRegression } from './rate-window-ops.js';

export interface InFlightCounts {
  /** Contracts now EXECUTING or ROLLING_BACK, all capabilities, not counting the one being transitioned. */
  readonly inFlightGlobal: number;
  /** The same, for this capability only. */
  readonly inFlightForCapability: number;
}

export interface InFlightInput {
  readonly nowMs: number;
  readonly capability: Capability;
  readonly state: RateWindowState;
  readonly limits: RateLimits;
  readonly counts: InFlightCounts;
}

/**
 * The PREPARED → EXECUTING checkpoint: may this contract start executing now? Refuses with
 * CLOCK_REGRESSION, GLOBAL_IN_FLIGHT (count ≥ maxGlobalInFlight) or CAPABILITY_IN_FLIGHT; a refused
 * contract stays PREPARED. Nothing is counted here (the in-flight count is the contract rows themselves);
 * an admission only advances the clock high-water mark and prunes.
 */
export function decideInFlight(input: InFlightInput): RateDecision {
  const fn = 'decideInFlight';
  assertObject(input, `${fn}: "input"`);
  const nowMs = assertNowMs(input.nowMs, fn);
  if (!isCapability(input.capability)) throw new TypeError(`${fn}: "capability" must be a Capability`);
  const state = assertState(input.state, fn);
  const limits = assertRateLimits(input.limits, `${fn}: "limits"`);
  assertObject(input.counts, `${fn}: "counts"`);
  const global = assertCount(input.counts.inFlightGlobal, `${fn}: "counts.inFlightGlobal"`);
  const perCapability = assertCount(input.counts.inFlightForCapability, `${fn}: "counts.inFlightForCapability"`);
  if (perCapability > global) {
    throw new TypeError(`${fn}: "counts.inFlightForCapability" cannot exceed "counts.inFlightGlobal"`);
  }

  if (isClockRegression(state, nowMs)) {
    return Object.freeze({ allowed: false, reason: RateRefusalReason.CLOCK_REGRESSION, nextState: state });
  }
  if (global >= limits.maxGlobalInFlight) {
    return Object.freeze({ allowed: false, reason: RateRefusalReason.GLOBAL_IN_FLIGHT, nextState: state });
  }
  if (perCapability >= limits.maxInFlightPerCapability) {
    return Object.freeze({ allowed: false, reason: RateRefusalReason.CAPABILITY_IN_FLIGHT, nextState: state });
  }
  return Object.freeze({ allowed: true, reason: null, nextState: advance(state, nowMs, limits) });
}
