/** An injected wall clock: UTC milliseconds since the epoch. */
export type Clock = () => number;

/**
 * Calls an injected clock and returns its reading, refusing anything but a non-negative safe integer (a
 * clock that returns NaN, a float or a negative time would corrupt expiry and rate decisions silently):
 * `${label}: "clock" must return non-negative integer UTC milliseconds`.
 */
export function readClock(clock: Clock, label: string): number {
  const now = clock();
  if (!Number.isSafeInteger(now) || now < 0) throw new TypeError(`${label}: "clock" must return non-negative integer UTC milliseconds`);
  return now;
}
