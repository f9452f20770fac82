import { ValidationError } from './validation-error.js';

/**
 * Safe token (ids, operation ids, authorization ids): 1–128 characters; an ASCII letter or digit first,
 * then letters, digits, '.', '_', ':', '-'. No spaces, slashes, quotes or control characters, so a token
 * is safe in a log line, a file-name component (it can never be "." or ".."), JSON and SQL text.
 */
const SAFE_TOKEN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** Longest safe token, in characters. */
export const SAFE_TOKEN_MAX_LENGTH = 128;

export function isSafeToken(value: unknown): value is string {
  return typeof value === 'string' && SAFE_TOKEN.test(value);
}

export function assertSafeToken(value: unknown, name: string): string {
  if (typeof value !== 'string') throw new ValidationError('NOT_STRING', name, 'must be a string');
  if (!SAFE_TOKEN.test(value)) {
    throw new ValidationError('NOT_SAFE_TOKEN', name, 'must match [A-Za-z0-9][A-Za-z0-9._:-]{0,127}');
  }
  return value;
}
