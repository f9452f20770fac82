import { describe, expect, it } from 'vitest';
import { RecordingMockTransport } from '@pfsense-mcp/test-support';
import { InvalidRequestError, validateRequest } from '../src/index.js';

describe('validateRequest (shared by every transport)', () => {
  it('accepts pfrest-shaped requests and freezes a copy', () => {
    const query = { limit: 100, offset: 0, sort_by: 'name' };
    const v = validateRequest('GET', '/api/v2/firewall/aliases', { query });
    expect(v).toEqual({ method: 'GET', path: '/api/v2/firewall/aliases', query, body: null });
    expect(Object.isFrozen(v) && Object.isFrozen(v.query)).toBe(true);
    expect(v.query).not.toBe(query);
    expect(validateRequest('PATCH', '/api/v2/firewall/alias', { body: '{"id":1}' }).body).toBe('{"id":1}');
    expect(validateRequest('DELETE', '/a/b%20c', undefined).path).toBe('/a/b%20c');
  });

  it.each([
    ['method', () => validateRequest('HEAD', '/x', undefined)],
    ['lower-case method', () => validateRequest('get', '/x', undefined)],
    ['relative path', () => validateRequest('GET', 'x', undefined)],
    ['empty path', () => validateRequest('GET', '', undefined)],
    ['query in path', () => validateRequest('GET', '/x?a=1', undefined)],
    ['fragment', () => validateRequest('GET', '/x#a', undefined)],
    ['space', () => validateRequest('GET', '/x y', undefined)],
    ['dot-dot', () => validateRequest('GET', '/api/../x', undefined)],
    ['encoded dot-dot', () => validateRequest('GET', '/api/%2e%2E/x', undefined)],
    ['protocol-relative', () => validateRequest('GET', '//evil.example/x', undefined)],
    ['bad percent', () => validateRequest('GET', '/x%zz', undefined)],
    ['CRLF', () => validateRequest('GET', '/x\r\nHost: a', undefined)],
    ['non-ASCII', () => validateRequest('GET', '/é', undefined)],
    ['long path', () => validateRequest('GET', `/${'a'.repeat(3000)}`, undefined)],
    ['unknown option', () => validateRequest('GET', '/x', { headers: {} })],
    ['query not object', () => validateRequest('GET', '/x', { query: 'a=1' })],
    ['query float', () => validateRequest('GET', '/x', { query: { a: 1.5 } })],
    ['query bool', () => validateRequest('GET', '/x', { query: { a: true } })],
    ['query odd key', () => validateRequest('GET', '/x', { query: { 'a=b&c': 1 } })],
    ['query lone surrogate', () => validateRequest('GET', '/x', { query: { a: '\ud800' } })],
    ['body on GET', () => validateRequest('GET', '/x', { body: '{}' })],
    ['body not string', () => validateRequest('POST', '/x', { body: { a: 1 } })],
    ['huge body', () => validateRequest('POST', '/x', { body: 'x'.repeat(1024 * 1024 + 1) })],
  ])('refuses %s with InvalidRequestError (requestWritten false)', (_name, call) => {
    let caught: unknown;
    try {
      call();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InvalidRequestError);
    expect(caught).toMatchObject({ code: 'INVALID_REQUEST', requestWritten: false });
  });

  it('the mock refuses the same calls, and records none of them', async () => {
    const mock = new RecordingMockTransport({ handler: () => ({ status: 200 }) });
    await expect(mock.request('GET', '/x', { body: '{}' })).rejects.toBeInstanceOf(InvalidRequestError);
    expect(mock.callCount).toBe(0);
  });
});
