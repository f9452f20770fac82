import { assertObject } from '@pfsense-mcp/foundation';
import type { Capability } from './capability.js';
import { isCapability } from './is-capability.js';
import { RateRefusalReason } from './rate-decision.js';
import type { RateDecision } from './rate-decision.js';
import { assertRateLimits } from './rate-limits.js';
import type { RateLimits } from './rate-limits.js';
import { MAX_RATE_STATE_ENTRIES, isTargetDigest } from './rate-window-state.js';
import { targetCooldownMsOf } from './target-cooldown.js';
import type { RateWindowState } from './rate-window-state.js';
import { advance, assertCount, assertNowMs, assertState, cooldownRunning, isClockRegression, liveCount, own } from './rate-window-ops.js';

/** Live counts the store derives from contract rows in the same transaction (spec: Recovery behavior). */
export interface PrepareCounts {
  /** Contracts of this target now PREPARING or PREPARED, not counting the one being created. */
  readonly outstandingPreparedForTarget: number;
  /** Contracts now in RECONCILIATION, every capability and target. */
  readonly reconciliation: number;
}

export interface RateLimitInput {
  /** Injected wall clock, UTC milliseconds (never read here). */
  readonly nowMs: number;
  readonly capability: Capability;
  /** target_identity_digest: 64 lowercase hex. */
  readonly targetDigest: string;
  readonly state: RateWindowState;
  readonly limits: RateLimits;
  readonly counts: PrepareCounts;
}

/**
 * Admission refuses once this many times are stored, leaving headroom for outcome records (which are
 * never refused) below the hard parse bound.
 */
export const RATE_STATE_ADMISSION_CAP = MAX_RATE_STATE_ENTRIES / 2;

function refuse(reason: RateRefusalReason, state: RateWindowState, retryAtMs?: number): RateDecision {
  return Object.freeze({ allowed: false, reason, nextState: state, ...(retryAtMs === undefined ? {} : { retryAtMs }) });
}

function entryCount(s: RateWindowState): number {
  let n = Object.keys(s.targetCooldowns).length;
  for (const a of Object.values(s.capabilityWindows)) n += a.length;
  for (const a of Object.values(s.targetWindows)) n += a.length;
  return n;
}

/**
 * The PREPARE checkpoint: may a new contract be created for (capability, target) now?
 * Checks, in order, and refuses with the first that fails:
 *   CLOCK_REGRESSION, RECONCILIATION_LOCKOUT (count ≥ threshold), TARGET_OUTSTANDING_PREPARED,
 *   TARGET_COOLDOWN (targetCooldownMsOf: none for some capabilities), TARGET_RATE, CAPABILITY_RATE (sliding
 *   windows), STATE_CAPACITY.
 * What counts: an ADMITTED prepare enters both sliding windows at nowMs and stays there for windowMs,
 * whatever later happens to its contract (expired, failed, verified). A refused prepare counts for nothing.
 * Pure: the caller persists `nextState` in the same transaction as the contract row it gates.
 */
export function decideRateLimit(input: RateLimitInput): RateDecision {
  const fn = 'decideRateLimit';
  assertObject(input, `${fn}: "input"`);
  const nowMs = assertNowMs(input.nowMs, fn);
  if (!isCapability(input.capability)) throw new TypeError(`${fn}: "capability" must be a Capability`);
  if (!isTargetDigest(input.targetDigest)) throw new TypeError(`${fn}: "targetDigest" must be 64 lowercase hex`);
  const state = assertState(input.state, fn);
  const limits = assertRateLimits(input.limits, `${fn}: "limits"`);
  assertObject(input.counts, `${fn}: "counts"`);
  const outstanding = assertCount(input.counts.outstandingPreparedForTarget, `${fn}: "counts.outstandingPreparedForTarget"`);
  const reconciliation = assertCount(input.counts.reconciliation, `${fn}: "counts.reconciliation"`);
  const { capability, targetDigest } = input;

  if (isClockRegression(state, nowMs)) return refuse(RateRefusalReason.CLOCK_REGRESSION, state);
  if (reconciliation >= limits.reconciliationLockoutThreshold) {
    return refuse(RateRefusalReason.RECONCILIATION_LOCKOUT, state);
  }
  if (outstanding >= limits.maxOutstandingPreparedPerTarget) {
    return refuse(RateRefusalReason.TARGET_OUTSTANDING_PREPARED, state);
  }
  const cooldownStart = own(state.targetCooldowns, targetDigest);
  const cooldownMs = targetCooldownMsOf(capability, limits);
  if (cooldownStart !== undefined && cooldownRunning(cooldownStart, nowMs, cooldownMs)) {
    return refuse(RateRefusalReason.TARGET_COOLDOWN, state, cooldownStart + cooldownMs);
  }
  if (liveCount(own(state.targetWindows, targetDigest), nowMs, limits.windowMs) >= limits.maxPreparesPerTargetPerWindow) {
    return refuse(RateRefusalReason.TARGET_RATE, state);
  }
  if (liveCount(own(state.capabilityWindows, capability), nowMs, limits.windowMs) >= limits.maxPreparesPerCapabilityPerWindow) {
    return refuse(RateRefusalReason.CAPABILITY_RATE, state);
  }
  const next = advance(state, nowMs, limits, { capability, target: targetDigest });
  if (entryCount(next) > RATE_STATE_ADMISSION_CAP) return refuse(RateRefusalReason.STATE_CAPACITY, state);
  return Object.freeze({ allowed: true, reason: null, nextState: next });
}

/** True when the system-wide reconciliation lockout is active (derived, never a manual flag). */
export function isReconciliationLockoutActive(reconciliationCount: number, limits: RateLimits): boolean {
  const n = assertCount(reconciliationCount, 'isReconciliationLockoutActive: "reconciliationCount"');
  return n >= assertRateLimits(limits, 'isReconciliationLockoutActive: "limits"').reconciliationLockoutThreshold;
}
