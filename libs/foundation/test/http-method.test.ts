import { describe, expect, it } from 'vitest';
import { HTTP_METHODS, MUTATING_HTTP_METHODS, isHttpMethod } from '../src/index.js';

describe('HTTP methods', () => {
  it('are the five the product sends; the mutating ones are all but GET', () => {
    expect(HTTP_METHODS).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
    expect(MUTATING_HTTP_METHODS).toEqual(['POST', 'PUT', 'PATCH', 'DELETE']);
    expect(Object.isFrozen(HTTP_METHODS) && Object.isFrozen(MUTATING_HTTP_METHODS)).toBe(true);
  });

  it('isHttpMethod matches exactly, upper case only', () => {
    for (const m of HTTP_METHODS) expect(isHttpMethod(m)).toBe(true);
    for (const v of ['patch', 'HEAD', 'OPTIONS', ' GET', '', null, undefined, 1, ['GET'], { GET: 1 }]) expect(isHttpMethod(v)).toBe(false);
  });
});
