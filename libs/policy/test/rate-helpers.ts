import { Capability, DEFAULT_RATE_LIMITS, EMPTY_RATE_WINDOW_STATE, decideRateLimit } from '../src/index.js';
import type { PrepareCounts, RateDecision, RateLimits, RateWindowState } from '../src/index.js';

export const T1 = 'a'.repeat(64);
export const T2 = 'b'.repeat(64);
export const CAP = Capability.ALIAS_WRITE;
export const CAP2 = Capability.FIREWALL_READ; // any other capability, to show per-capability separation
export const T0 = Date.UTC(2026, 0, 1);
export const NONE: PrepareCounts = Object.freeze({ outstandingPreparedForTarget: 0, reconciliation: 0 });

/** Limits that make one dimension at a time observable. */
export function limits(over: Partial<RateLimits> = {}): RateLimits {
  return {
    ...DEFAULT_RATE_LIMITS,
    targetCooldownMs: 0,
    maxPreparesPerTargetPerWindow: 100,
    maxPreparesPerCapabilityPerWindow: 100,
    ...over,
  };
}

export function prepare(
  state: RateWindowState,
  nowMs: number,
  l: RateLimits,
  opts: { capability?: Capability; target?: string; counts?: PrepareCounts } = {},
): RateDecision {
  return decideRateLimit({
    nowMs,
    capability: opts.capability ?? CAP,
    targetDigest: opts.target ?? T1,
    state,
    limits: l,
    counts: opts.counts ?? NONE,
  });
}

/** Admit a prepare and return the next state; fails the test if refused. */
export function admit(state: RateWindowState, nowMs: number, l: RateLimits, opts: Parameters<typeof prepare>[3] = {}) {
  const d = prepare(state, nowMs, l, opts);
  if (!d.allowed) throw new Error(`expected admission at ${nowMs}, got ${d.reason}`);
  return d.nextState;
}

export { EMPTY_RATE_WINDOW_STATE as EMPTY };
