// Internal helpers shared by the rate decision functions (not exported from the lib).
import type { RateLimits } from './rate-limits.js';
import { freezeRateWindowState } from './rate-window-state.js';
import type { RateWindowState } from './rate-window-state.js';
import { isRateWindowState } from './rate-window-state.js';

export function assertNowMs(value: unknown, fn: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new TypeError(`${fn}: "nowMs" must be a non-negative safe integer (UTC milliseconds)`);
  }
  return value;
}

export function assertCount(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new TypeError(`${name} must be a non-negative safe integer`);
  }
  return value;
}

export function assertState(value: unknown, fn: string): RateWindowState {
  if (!isRateWindowState(value)) throw new TypeError(`${fn}: "state" must be a valid RateWindowState`);
  return value;
}

export function isClockRegression(state: RateWindowState, nowMs: number): boolean {
  return state.highWaterMs !== null && nowMs < state.highWaterMs;
}

/** A time t is inside the window at nowMs iff nowMs - t < windowMs (at exactly windowMs it has left). */
export function liveCount(times: readonly number[] | undefined, nowMs: number, windowMs: number): number {
  if (times === undefined) return 0;
  return times.filter((t) => nowMs - t < windowMs).length;
}

/** A cooldown started at s is running at nowMs iff nowMs < s + cooldownMs. */
export function cooldownRunning(start: number | undefined, nowMs: number, cooldownMs: number): boolean {
  return start !== undefined && nowMs < start + cooldownMs;
}

export function own<V>(rec: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(rec, key) ? rec[key] : undefined;
}

function pruneWindows(rec: Readonly<Record<string, readonly number[]>>, nowMs: number, windowMs: number) {
  const out: Record<string, readonly number[]> = {};
  for (const [k, times] of Object.entries(rec)) {
    const live = times.filter((t) => nowMs - t < windowMs);
    if (live.length > 0) out[k] = live;
  }
  return out;
}

/**
 * Drops everything no longer live at `nowMs` and advances the high-water mark, so the persisted state
 * stays bounded by what can still matter. Optional additions are applied after pruning.
 */
export function advance(
  state: RateWindowState,
  nowMs: number,
  limits: RateLimits,
  add: { capability?: string; target?: string; cooldownTarget?: string } = {},
): RateWindowState {
  const capabilityWindows = pruneWindows(state.capabilityWindows, nowMs, limits.windowMs);
  const targetWindows = pruneWindows(state.targetWindows, nowMs, limits.windowMs);
  const targetCooldowns: Record<string, number> = {};
  for (const [k, start] of Object.entries(state.targetCooldowns)) {
    if (cooldownRunning(start, nowMs, limits.targetCooldownMs)) targetCooldowns[k] = start;
  }
  if (add.capability !== undefined) capabilityWindows[add.capability] = [...(capabilityWindows[add.capability] ?? []), nowMs];
  if (add.target !== undefined) targetWindows[add.target] = [...(targetWindows[add.target] ?? []), nowMs];
  // A cooldown with zero length would be pruned at once; keeping it would only grow the state.
  if (add.cooldownTarget !== undefined && limits.targetCooldownMs > 0) targetCooldowns[add.cooldownTarget] = nowMs;
  const highWaterMs = state.highWaterMs === null ? nowMs : Math.max(state.highWaterMs, nowMs);
  return freezeRateWindowState({ version: 1, highWaterMs, capabilityWindows, targetWindows, targetCooldowns });
}
