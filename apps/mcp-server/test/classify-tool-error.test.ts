import { TransportConnectionError, TransportError, TransportTimeoutError, ResponseTooLargeError } from '@pfsense-mcp/transports';
import { describe, expect, it } from 'vitest';
import { classifyToolError, ToolErrorCode } from '../src/index.js';

describe('classifyToolError: transport failures', () => {
  // The codes libs/transports throws as a plain TransportError (classify-transport-failure.ts, create-http-transport.ts).
  const cases = [
    ['MALFORMED_RESPONSE', ToolErrorCode.UPSTREAM_MALFORMED_RESPONSE],
    ['BODY_NOT_UTF8', ToolErrorCode.UPSTREAM_MALFORMED_RESPONSE],
    ['TRANSPORT_FAILURE', ToolErrorCode.UPSTREAM_UNREACHABLE],
  ] as const;
  for (const [code, expected] of cases) {
    it(`${code} → ${expected}, never INTERNAL_ERROR`, () => {
      const classified = classifyToolError(new TransportError('transport: something', code, true, 'HPE_INVALID_CONSTANT'));
      expect(classified.code).toBe(expected);
      expect(classified.message).not.toContain('HPE_');
    });
  }

  it('keeps the typed subclasses mapped (timeouts, connection failures, size cap)', () => {
    expect(classifyToolError(new TransportTimeoutError('RESPONSE_TIMEOUT', true)).code).toBe(ToolErrorCode.UPSTREAM_TIMEOUT);
    expect(classifyToolError(new TransportConnectionError('TLS_FAILURE', false)).code).toBe(ToolErrorCode.UPSTREAM_TLS_FAILURE);
    expect(classifyToolError(new TransportConnectionError('CONNECTION_RESET', true)).code).toBe(ToolErrorCode.UPSTREAM_UNREACHABLE);
    expect(classifyToolError(new ResponseTooLargeError(1024)).code).toBe(ToolErrorCode.UPSTREAM_RESPONSE_TOO_LARGE);
  });

  it('an unknown transport code or a foreign error stays INTERNAL_ERROR', () => {
    expect(classifyToolError(new TransportError('transport: x', 'SOMETHING_NEW', true)).code).toBe(ToolErrorCode.INTERNAL_ERROR);
    expect(classifyToolError(new Error('boom')).code).toBe(ToolErrorCode.INTERNAL_ERROR);
  });
});
