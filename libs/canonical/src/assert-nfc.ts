import { isWellFormed } from './is-well-formed.js';
import { ValidationError } from './validation-error.js';

/**
 * A well-formed string already in Unicode Normalization Form C. Applied to product inputs (alias name,
 * description, ids) only — never to data read from the appliance, which is encoded exactly as given.
 */
export function assertNfc(value: unknown, name: string): string {
  if (typeof value !== 'string') throw new ValidationError('NOT_STRING', name, 'must be a string');
  if (!isWellFormed(value)) throw new ValidationError('LONE_SURROGATE', name, 'must not contain a lone surrogate');
  if (value.normalize('NFC') !== value) throw new ValidationError('NOT_NFC', name, 'must be in Unicode NFC');
  return value;
}

/** Boolean form of `assertNfc`. */
export function isNfc(value: unknown): value is string {
  return typeof value === 'string' && isWellFormed(value) && value.normalize('NFC') === value;
}
