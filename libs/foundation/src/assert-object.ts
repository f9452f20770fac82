/**
 * Argument assertions in the way noble's `abytes`/`anumber` work: one call at the top of a public function,
 * a `TypeError` whose message names the argument and never carries its value. `label` is what the message
 * starts with — the function and the argument, e.g. `createLabGateRequest: "input"` — so each caller keeps
 * its own wording.
 */

/** A non-null object (an array passes, as `typeof` says): `${label} must be an object`. */
export function assertObject(value: unknown, label: string): asserts value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') throw new TypeError(`${label} must be an object`);
}

/** A non-null object that is not an array: `${label} must be an object`. */
export function assertRecord(value: unknown, label: string): asserts value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new TypeError(`${label} must be an object`);
}
