import { AdapterInputError } from './adapter-error.js';
import { assertAliasName } from './assert-alias-name.js';

/**
 * The closed PATCH body: exactly `{id, name, descr, apply: false}` (docs/DESIGN.md §5). `id` locates the
 * object, but pfrest ids are array indexes that shift when an earlier object is deleted; `name` is the
 * alias's unchanged, non-editable name, so pfrest itself refuses the PATCH (400
 * FIELD_VALUE_CHANGED_WHEN_NOT_EDITABLE) when `id` now names another alias. `apply` is always false: the
 * write never reloads the filter.
 */
export interface AliasDescriptionRequest {
  readonly id: number;
  readonly name: string;
  readonly descr: string;
  readonly apply: false;
}

// Requests this module built. A look-alike object (same keys and values, built elsewhere) is not a member,
// so the executor's run-time check cannot be satisfied by a plain object literal. Plain frozen objects are
// used (not class instances) because the write client sends canonical JSON, which admits plain objects only.
const BUILT: WeakSet<object> = new WeakSet();

/**
 * Builds and registers a request model for the alias `name` at `locator`. `name` must be the resolved
 * target's own name and `descr` must already be validated by the caller.
 */
export function createAliasDescriptionRequest(locator: unknown, name: unknown, descr: string): AliasDescriptionRequest {
  if (typeof locator !== 'number' || !Number.isSafeInteger(locator) || locator < 0) {
    throw new AdapterInputError('BAD_LOCATOR', 'target.locator', 'must be a non-negative safe integer');
  }
  const aliasName = assertAliasName(name, 'target.identity.alias_name');
  const request: AliasDescriptionRequest = Object.freeze({ id: locator, name: aliasName, descr, apply: false });
  BUILT.add(request);
  return request;
}

/** True only for a frozen request model built by this adapter (docs/DESIGN.md §4 step 6 run-time check). */
export function isAliasDescriptionRequest(value: unknown): value is AliasDescriptionRequest {
  return typeof value === 'object' && value !== null && BUILT.has(value) && Object.isFrozen(value);
}
