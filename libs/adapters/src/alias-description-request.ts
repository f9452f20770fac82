import { AdapterInputError } from './adapter-error.js';

/**
 * The closed PATCH body: exactly `{id, descr, apply: false}` (ARCHITECTURE §5, ADR-026 "Request mapping").
 * `apply` is always false: the write never reloads the filter.
 */
export interface AliasDescriptionRequest {
  readonly id: number;
  readonly descr: string;
  readonly apply: false;
}

// Requests this module built. A look-alike object (same keys and values, built elsewhere) is not a member,
// so the executor's run-time check cannot be satisfied by a plain object literal. Plain frozen objects are
// used (not class instances) because the write client sends canonical JSON, which admits plain objects only.
const BUILT: WeakSet<object> = new WeakSet();

/** Builds and registers a request model. `descr` must already be validated by the caller. */
export function createAliasDescriptionRequest(locator: unknown, descr: string): AliasDescriptionRequest {
  if (typeof locator !== 'number' || !Number.isSafeInteger(locator) || locator < 0) {
    throw new AdapterInputError('BAD_LOCATOR', 'target.locator', 'must be a non-negative safe integer');
  }
  const request: AliasDescriptionRequest = Object.freeze({ id: locator, descr, apply: false });
  BUILT.add(request);
  return request;
}

/** True only for a frozen request model built by this adapter (ARCHITECTURE §4 step 6 run-time check). */
export function isAliasDescriptionRequest(value: unknown): value is AliasDescriptionRequest {
  return typeof value === 'object' && value !== null && BUILT.has(value) && Object.isFrozen(value);
}
