import { ValidationError } from './validation-error.js';

const HEX64 = /^[0-9a-f]{64}$/;

/** Exactly 64 lowercase hex characters (a SHA-256 digest or a key id). */
export function isHex64(value: unknown): value is string {
  return typeof value === 'string' && HEX64.test(value);
}

export function assertHex64(value: unknown, name: string): string {
  if (typeof value !== 'string') throw new ValidationError('NOT_STRING', name, 'must be a string');
  if (!HEX64.test(value)) throw new ValidationError('NOT_HEX64', name, 'must be 64 lowercase hex characters');
  return value;
}
