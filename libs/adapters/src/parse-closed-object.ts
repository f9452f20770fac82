import type { z } from 'zod';
import { AdapterInputError } from './adapter-error.js';
import type { AdapterInputCode } from './adapter-error.js';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Validates an object with exactly `keys` (none missing, none extra) against `schema`. Refusals name the
 * argument and one of our own field names, never a caller-chosen key or any value.
 */
export function parseClosedObject<T>(
  value: unknown,
  keys: readonly string[],
  schema: z.ZodType<T>,
  argument: string,
  codeForSchemaFailure: AdapterInputCode = 'MALFORMED',
): T {
  if (!isPlainObject(value)) throw new AdapterInputError('NOT_OBJECT', argument, 'must be a plain object');
  const missing = keys.find((k) => !Object.prototype.hasOwnProperty.call(value, k));
  if (missing !== undefined) throw new AdapterInputError('MISSING_FIELD', `${argument}.${missing}`, 'is required');
  if (Reflect.ownKeys(value).length !== keys.length) {
    throw new AdapterInputError('UNKNOWN_FIELD', argument, `must have exactly the fields ${keys.join(', ')}`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const field = first === undefined ? '' : first.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
    throw new AdapterInputError(codeForSchemaFailure, `${argument}${field}`, 'has the wrong type or shape');
  }
  return parsed.data;
}

/** Projects `keys` out of an object (missing keys stay missing), so a wider object can be validated closed. */
export function projectKeys(value: unknown, keys: readonly string[]): unknown {
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(keys.filter((k) => Object.prototype.hasOwnProperty.call(value, k)).map((k) => [k, value[k]]));
}
