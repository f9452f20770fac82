import { assertObject } from '@pfsense-mcp/foundation';
import type { Capability } from './capability.js';
import { isCapability } from './is-capability.js';
import { assertRateLimits } from './rate-limits.js';
import type { RateLimits } from './rate-limits.js';
import { isTargetDigest } from './rate-window-state.js';
import type { RateWindowState } from './rate-window-state.js';
import { advance, assertNowMs, assertState } from './rate-window-ops.js';
import { targetCooldownMsOf } from './target-cooldown.js';

/** Contract outcomes the rate policy is told about (names equal the RecoveryState they enter). */
export const RateOutcome = Object.freeze({
  VERIFIED: 'VERIFIED',
  FAILED: 'FAILED',
  ROLLED_BACK: 'ROLLED_BACK',
  ROLLBACK_FAILED: 'ROLLBACK_FAILED',
  EXPIRED: 'EXPIRED',
  RECONCILIATION: 'RECONCILIATION',
} as const);

export type RateOutcome = (typeof RateOutcome)[keyof typeof RateOutcome];

/**
 * What each outcome counts for (spec: record_terminal). An outcome that may have touched the appliance
 * starts the target's cooldown (no immediate re-prepare after a completion, success or not):
 * VERIFIED, FAILED, ROLLED_BACK, ROLLBACK_FAILED — also when reached by a signed reconciliation resolution —
 * for a capability whose targets have one (targetCooldownMsOf).
 * EXPIRED does not: nothing was sent, and expiry applies only before execution. RECONCILIATION does not:
 * it is unresolved; it counts toward the system-wide lockout through the store's live count, and its
 * resolution, when it comes, starts the cooldown. None of them changes the sliding PREPARE windows: the
 * prepare was counted when it was admitted.
 */
export const OUTCOME_STARTS_COOLDOWN: Readonly<Record<RateOutcome, boolean>> = Object.freeze({
  VERIFIED: true,
  FAILED: true,
  ROLLED_BACK: true,
  ROLLBACK_FAILED: true,
  EXPIRED: false,
  RECONCILIATION: false,
});

export interface RecordOutcomeInput {
  readonly nowMs: number;
  /** The capability of the contract: whether its target has a cooldown at all (targetCooldownMsOf). */
  readonly capability: Capability;
  readonly targetDigest: string;
  readonly outcome: RateOutcome;
  readonly state: RateWindowState;
  readonly limits: RateLimits;
}

/**
 * Records an outcome and returns the state to persist with the transition. Never refuses: the transition
 * has already been decided, and blocking it (e.g. EXECUTING → FAILED) would be worse than any rate
 * concern. If the clock went backwards, the cooldown starts at the high-water mark instead — the later of
 * the two, so a regression can only lengthen the cooldown, never shorten it.
 */
export function recordOutcome(input: RecordOutcomeInput): RateWindowState {
  const fn = 'recordOutcome';
  assertObject(input, `${fn}: "input"`);
  const nowMs = assertNowMs(input.nowMs, fn);
  if (!isCapability(input.capability)) throw new TypeError(`${fn}: "capability" must be a Capability`);
  if (!isTargetDigest(input.targetDigest)) throw new TypeError(`${fn}: "targetDigest" must be 64 lowercase hex`);
  if (typeof input.outcome !== 'string' || !Object.hasOwn(OUTCOME_STARTS_COOLDOWN, input.outcome)) {
    throw new TypeError(`${fn}: "outcome" must be a RateOutcome`);
  }
  const state = assertState(input.state, fn);
  const limits = assertRateLimits(input.limits, `${fn}: "limits"`);
  const effectiveMs = state.highWaterMs === null ? nowMs : Math.max(nowMs, state.highWaterMs);
  const startsCooldown = OUTCOME_STARTS_COOLDOWN[input.outcome] && targetCooldownMsOf(input.capability, limits) > 0;
  return advance(state, effectiveMs, limits, startsCooldown ? { cooldownTarget: input.targetDigest } : {});
}
