/**
 * TEST-ONLY fault injection. Each durable write calls `at(point, operation)` at four boundaries; the
 * crash tests' child process passes a hook that SIGKILLs itself at the named one. Production code never
 * sets this option.
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
