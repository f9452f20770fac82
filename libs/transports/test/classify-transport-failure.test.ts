// The requestWritten policy for failures that loopback cannot produce (DNS, unreachable, odd
// library errors): known pre-connection failures are "not written" unless the socket says it
// connected; everything unknown is "written" (the ambiguous side, docs/DESIGN.md §4 step 8).
import { describe, expect, it } from 'vitest';
import { classifyTransportFailure } from '../src/classify-transport-failure.js';

const err = (fields: Record<string, unknown>): Error => Object.assign(new Error('got says https://u:p@host/x'), fields);

describe('classifyTransportFailure', () => {
  it.each([
    ['ECONNREFUSED', 'CONNECTION_REFUSED'],
    ['ENOTFOUND', 'DNS_FAILURE'],
    ['EAI_AGAIN', 'DNS_FAILURE'],
    ['EHOSTUNREACH', 'UNREACHABLE'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'TLS_FAILURE'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'TLS_FAILURE'],
    ['CERT_HAS_EXPIRED', 'TLS_FAILURE'],
  ])('%s is %s, unwritten unless connected', (code, expected) => {
    for (const phase of ['not-started', 'connecting'] as const) {
      expect(classifyTransportFailure(err({ code }), phase)).toMatchObject({ code: expected, requestWritten: false });
    }
    expect(classifyTransportFailure(err({ code }), 'connected')).toMatchObject({ code: expected, requestWritten: true });
  });

  it('timeouts: connect phases unwritten, later phases written', () => {
    for (const event of ['lookup', 'connect', 'secureConnect']) {
      expect(classifyTransportFailure(err({ name: 'TimeoutError', code: 'ETIMEDOUT', event }), 'connecting')).toMatchObject({
        name: 'TransportTimeoutError',
        code: 'CONNECT_TIMEOUT',
        requestWritten: false,
      });
    }
    for (const event of ['send', 'response', 'read', 'request', 'socket']) {
      expect(classifyTransportFailure(err({ name: 'TimeoutError', code: 'ETIMEDOUT', event }), 'connected')).toMatchObject({
        code: 'RESPONSE_TIMEOUT',
        requestWritten: true,
      });
    }
  });

  it('a reset is written once connected, and when no socket was seen', () => {
    expect(classifyTransportFailure(err({ code: 'ECONNRESET' }), 'connected').requestWritten).toBe(true);
    expect(classifyTransportFailure(err({ code: 'ECONNRESET' }), 'not-started').requestWritten).toBe(true);
    expect(classifyTransportFailure(err({ code: 'EPIPE' }), 'connecting').requestWritten).toBe(false);
  });

  it('unknown errors are TRANSPORT_FAILURE with requestWritten true, whatever the phase', () => {
    for (const phase of ['not-started', 'connecting', 'connected'] as const) {
      for (const e of [err({ code: 'ESOMETHING' }), err({}), 'a string', null, err({ code: 'lower case text' })]) {
        expect(classifyTransportFailure(e, phase)).toMatchObject({ code: 'TRANSPORT_FAILURE', requestWritten: true });
      }
    }
  });

  it('HTTP parse errors are MALFORMED_RESPONSE, written', () => {
    expect(classifyTransportFailure(err({ code: 'HPE_INVALID_CONSTANT' }), 'connected')).toMatchObject({
      code: 'MALFORMED_RESPONSE',
      requestWritten: true,
    });
  });

  it('never copies the original message or keeps it as cause', () => {
    const e = classifyTransportFailure(err({ code: 'ECONNRESET' }), 'connected');
    expect(e.message).not.toContain('u:p');
    expect(e.cause).toBeUndefined();
    expect(classifyTransportFailure(err({ code: 'weird\nvalue' }), 'connected').upstreamCode).toBeNull();
  });

  it('prefers the precise code of the cause over a generic wrapper code', () => {
    const wrapped = err({ code: 'ERR_GOT_REQUEST_ERROR', cause: { code: 'ECONNREFUSED' } });
    expect(classifyTransportFailure(wrapped, 'connecting').code).toBe('CONNECTION_REFUSED');
  });
});
