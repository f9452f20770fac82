import type { RateLimits, RateWindowState } from '@pfsense-mcp/policy';

/** One counted window: how many are used now and the limit in force. */
export interface RateCount {
  readonly used: number;
  readonly limit: number;
}

/**
 * The rate windows in force at `atMs`, as the store's authenticated rate row and its live contract counts give
 * them (docs/DESIGN.md §3): per-target cooldowns still running (remaining ms) and per-target PREPARE windows
 * still holding admissions — both by target identity digest, never a name — the per-capability PREPARE
 * windows, the in-flight count and the reconciliation lockout count. Read-only: nothing is decided or written.
 */
export interface RateWindowsView {
  readonly atMs: number;
  readonly windowMs: number;
  readonly targetCooldowns: readonly { readonly targetDigest: string; readonly remainingMs: number }[];
  readonly targetWindows: readonly ({ readonly targetDigest: string } & RateCount)[];
  readonly capabilityWindows: readonly ({ readonly capability: string } & RateCount)[];
  readonly inFlight: RateCount;
  readonly reconciliation: RateCount;
  /** The clock is behind the latest reading the windows accepted: every PREPARE is refused until it catches up. */
  readonly clockRegression: boolean;
  /** With clockRegression: that latest reading (UTC ms) — when PREPAREs are admitted again; null otherwise. */
  readonly clockBlockedUntilMs: number | null;
}

const live = (times: readonly number[], atMs: number, windowMs: number): number => times.filter((t) => atMs - t < windowMs).length;

/** Pure: the view of `state` under `limits` at `atMs`, with the live counts the store derived from its rows. */
export function rateWindowsView(
  state: RateWindowState,
  limits: RateLimits,
  counts: { readonly inFlight: number; readonly reconciliation: number },
  atMs: number,
): RateWindowsView {
  const byKey = <T>(a: readonly T[], key: (x: T) => string) => [...a].sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0));
  const targetCooldowns = Object.entries(state.targetCooldowns)
    .map(([targetDigest, start]) => ({ targetDigest, remainingMs: start + limits.targetCooldownMs - atMs }))
    .filter((c) => c.remainingMs > 0);
  const targetWindows = Object.entries(state.targetWindows)
    .map(([targetDigest, times]) => ({
      targetDigest,
      used: live(times, atMs, limits.windowMs),
      limit: limits.maxPreparesPerTargetPerWindow,
    }))
    .filter((w) => w.used > 0);
  const capabilityWindows = Object.entries(state.capabilityWindows)
    .map(([capability, times]) => ({
      capability,
      used: live(times, atMs, limits.windowMs),
      limit: limits.maxPreparesPerCapabilityPerWindow,
    }))
    .filter((w) => w.used > 0);
  return Object.freeze({
    atMs,
    windowMs: limits.windowMs,
    targetCooldowns: Object.freeze(byKey(targetCooldowns, (c) => c.targetDigest).map((c) => Object.freeze(c))),
    targetWindows: Object.freeze(byKey(targetWindows, (w) => w.targetDigest).map((w) => Object.freeze(w))),
    capabilityWindows: Object.freeze(byKey(capabilityWindows, (w) => w.capability).map((w) => Object.freeze(w))),
    inFlight: Object.freeze({ used: counts.inFlight, limit: limits.maxGlobalInFlight }),
    reconciliation: Object.freeze({ used: counts.reconciliation, limit: limits.reconciliationLockoutThreshold }),
    clockRegression: state.highWaterMs !== null && atMs < state.highWaterMs,
    clockBlockedUntilMs: state.highWaterMs !== null && atMs < state.highWaterMs ? state.highWaterMs : null,
  });
}
