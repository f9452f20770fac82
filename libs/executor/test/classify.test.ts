import { describe, expect, it } from 'vitest';
import {
  ResponseTooLargeError,
  TransportConnectionError,
  TransportError,
  TransportTimeoutError,
  WriteRefusalError,
} from '@pfsense-mcp/write-client';
import { classifySendError, classifySendResponse } from '../src/index.js';

const env = (code: number, status = code === 200 ? 'ok' : 'error', responseId = code === 200 ? 'SUCCESS' : 'X') =>
  JSON.stringify({ code, status, response_id: responseId, message: '', data: [] });
const yes = () => true;
const no = () => false;

describe('classifySendError (docs/DESIGN.md §4 step 8)', () => {
  it('PROVEN_NONE only when the error proves nothing was written', () => {
    expect(classifySendError(new WriteRefusalError('UNVERIFIED_ENDPOINT', 'X', 'x'))).toEqual({
      knowledge: 'PROVEN_NONE',
      outcomeClass: 'REFUSED_BEFORE_SEND',
    });
    for (const code of ['CONNECTION_REFUSED', 'DNS_FAILURE', 'UNREACHABLE', 'TLS_FAILURE'] as const) {
      expect(classifySendError(new TransportConnectionError(code, false))).toEqual({
        knowledge: 'PROVEN_NONE',
        outcomeClass: 'NOT_WRITTEN',
      });
    }
    expect(classifySendError(new TransportTimeoutError('CONNECT_TIMEOUT', false)).knowledge).toBe('PROVEN_NONE');
  });

  it('anything written, or unknown, is AMBIGUOUS', () => {
    expect(classifySendError(new TransportTimeoutError('RESPONSE_TIMEOUT', true))).toEqual({
      knowledge: 'AMBIGUOUS',
      outcomeClass: 'TIMEOUT_AFTER_WRITE',
    });
    expect(classifySendError(new TransportConnectionError('CONNECTION_RESET', true)).outcomeClass).toBe('CONNECTION_LOST_AFTER_WRITE');
    // Even a "refused" code is ambiguous when the transport could not rule out a write.
    expect(classifySendError(new TransportConnectionError('CONNECTION_REFUSED', true)).knowledge).toBe('AMBIGUOUS');
    expect(classifySendError(new ResponseTooLargeError(10)).outcomeClass).toBe('RESPONSE_TOO_LARGE');
    expect(classifySendError(new TransportError('x', 'MALFORMED_RESPONSE', true)).outcomeClass).toBe('TRANSPORT_FAILURE');
    for (const odd of [new Error('x'), 'string', null, undefined, { requestWritten: false }]) {
      expect(classifySendError(odd)).toEqual({ knowledge: 'AMBIGUOUS', outcomeClass: 'UNKNOWN_SEND_ERROR' });
    }
  });
});

describe('classifySendResponse', () => {
  it('VERIFIED_SUCCESS only for HTTP 200 the adapter accepts', () => {
    expect(classifySendResponse({ status: 200, body: env(200) }, yes)).toEqual({
      knowledge: 'VERIFIED_SUCCESS',
      outcomeClass: 'VERIFIED_SUCCESS',
    });
    expect(classifySendResponse({ status: 200, body: env(200) }, no).knowledge).toBe('AMBIGUOUS');
    expect(classifySendResponse({ status: 200, body: env(200) }, () => 'true' as unknown as boolean).knowledge).toBe('AMBIGUOUS');
    expect(
      classifySendResponse({ status: 200, body: env(200) }, () => {
        throw new Error('adapter bug');
      }).knowledge,
    ).toBe('AMBIGUOUS');
    for (const status of [201, 202, 204, 299])
      expect(classifySendResponse({ status, body: env(200) }, yes).outcomeClass).toBe('UNEXPECTED_2XX');
  });

  it("a 200 without pfrest's success envelope is AMBIGUOUS and the adapter is never asked", () => {
    let asked = 0;
    const permissive = () => {
      asked += 1;
      return true;
    };
    const bodies = [
      '<html>OK</html>',
      '',
      '{"code":200,"status":"ok"',
      env(400),
      env(200, 'ok', 'X'),
      env(200, 'error', 'SUCCESS'),
      env(201, 'ok', 'SUCCESS'),
      JSON.stringify({ code: 200, status: 'ok', response_id: 'SUCCESS' }),
      JSON.stringify([{ code: 200, status: 'ok', response_id: 'SUCCESS', data: [] }]),
    ];
    for (const body of bodies) {
      expect(classifySendResponse({ status: 200, body }, permissive)).toEqual({
        knowledge: 'AMBIGUOUS',
        outcomeClass: 'NOT_SUCCESS_ENVELOPE_200',
      });
    }
    expect(asked).toBe(0);
    expect(classifySendResponse({ status: 200, body: env(200) }, permissive).knowledge).toBe('VERIFIED_SUCCESS');
    expect(asked).toBe(1);
  });

  it('VERIFIED_FAILURE only for 4xx with a pfrest error envelope of that code', () => {
    for (const status of [400, 401, 403, 404, 409, 422]) {
      expect(classifySendResponse({ status, body: env(status) }, yes)).toEqual({
        knowledge: 'VERIFIED_FAILURE',
        outcomeClass: 'REJECTED_4XX',
      });
    }
    expect(classifySendResponse({ status: 404, body: '<html>404</html>' }, yes).outcomeClass).toBe('UNRECOGNIZED_4XX');
    expect(classifySendResponse({ status: 400, body: env(500) }, yes).outcomeClass).toBe('UNRECOGNIZED_4XX');
    expect(classifySendResponse({ status: 400, body: '' }, yes).knowledge).toBe('AMBIGUOUS');
  });

  it('3xx, 5xx, 1xx and unreadable responses are AMBIGUOUS', () => {
    expect(classifySendResponse({ status: 302, body: '' }, yes).outcomeClass).toBe('REDIRECT_3XX');
    expect(classifySendResponse({ status: 500, body: env(500) }, yes).outcomeClass).toBe('SERVER_ERROR_5XX');
    expect(classifySendResponse({ status: 503, body: env(503) }, yes).outcomeClass).toBe('SERVER_ERROR_5XX');
    expect(classifySendResponse({ status: 101, body: '' }, yes).outcomeClass).toBe('UNEXPECTED_STATUS');
    for (const odd of [null, 'x', { status: '200', body: '' }, { status: 200 }, { status: 200.5, body: '' }]) {
      expect(classifySendResponse(odd, yes)).toEqual({ knowledge: 'AMBIGUOUS', outcomeClass: 'MALFORMED_RESPONSE' });
    }
  });
});
