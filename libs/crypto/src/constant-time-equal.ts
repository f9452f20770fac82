import { timingSafeEqual } from 'node:crypto';
import { assertBytes } from './assert-bytes.js';

/** Equality of two byte strings in time independent of their contents (lengths are not secret). */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  assertBytes('constantTimeEqual', 'a', a);
  assertBytes('constantTimeEqual', 'b', b);
  if (a.length !== b.length) return false;
  return timingSafeEqual(a, b);
}
