/**
 * TEST-ONLY fault injection of `rotateMasterKey`: `at(step)` is called right after each durable step; the
 * rotation crash tests pass a hook that SIGKILLs its own process at one step. Reachable only under the
 * `ROTATION_CRASH_HOOKS` symbol key, like the stores' CRASH_HOOKS: a product caller cannot set it by accident.
 */
export const ROTATION_STEPS = Object.freeze([
  'journal-begun',
  'new-key-written',
  'contracts-copied',
  'contracts-staged',
  'consumption-copied',
  'consumption-staged',
  'journal-staged',
  'committed',
  'contracts-swapped',
  'consumption-swapped',
] as const);
export type RotationStep = (typeof ROTATION_STEPS)[number];

export interface RotationCrashHooks {
  at(step: RotationStep): void;
}

export const ROTATION_CRASH_HOOKS: unique symbol = Symbol('pfsense-mcp/contract-store/rotation-crash-hooks (tests only)');

export interface WithRotationCrashHooks {
  readonly [ROTATION_CRASH_HOOKS]?: RotationCrashHooks;
}
