/**
 * TEST-ONLY fault injection. Each durable write calls `at(point, operation)` at four boundaries; the
 * crash tests' child processes pass a hook that SIGKILLs itself at the named one. The hook is reachable
 * only under the `CRASH_HOOKS` symbol key (not a string option), so a product caller cannot set it by
 * accident — it has to import this symbol, whose name says what it is for.
 */
export type CrashPoint = 'before-begin' | 'after-write-before-commit' | 'after-commit-before-anchor' | 'after-anchor';

export const CRASH_POINTS: readonly CrashPoint[] = Object.freeze([
  'before-begin',
  'after-write-before-commit',
  'after-commit-before-anchor',
  'after-anchor',
]);

export interface CrashHooks {
  at(point: CrashPoint, operation: string): void;
}

/** The option key of the test-only crash hooks (`{ ...options, [CRASH_HOOKS]: hooks }`). */
export const CRASH_HOOKS: unique symbol = Symbol('pfsense-mcp/contract-store/crash-hooks (tests only)');

/** Options that may carry test-only crash hooks. */
export interface WithCrashHooks {
  readonly [CRASH_HOOKS]?: CrashHooks;
}

/** Reads the hooks from options; refuses the old string key so a stale test cannot silently run without them. */
export function crashHooksOf(options: object, fn: string): CrashHooks | undefined {
  if (Object.hasOwn(options, 'crashHooks'))
    throw new TypeError(`${fn}: "crashHooks" is not an option; tests pass hooks under the CRASH_HOOKS symbol`);
  const hooks = (options as WithCrashHooks)[CRASH_HOOKS];
  if (hooks !== undefined && (hooks === null || typeof hooks.at !== 'function')) throw new TypeError(`${fn}: crash hooks must have at()`);
  return hooks;
}
