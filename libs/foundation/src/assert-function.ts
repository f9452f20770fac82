/**
 * A function: `${label} must be ${what}` (default "a function"), e.g. `MutationExecutor: "clock"` with
 * `what` "a function returning UTC milliseconds". See assert-object.ts for the style.
 */
export function assertFunction(value: unknown, label: string, what = 'a function'): asserts value is (...args: never[]) => unknown {
  if (typeof value !== 'function') throw new TypeError(`${label} must be ${what}`);
}
