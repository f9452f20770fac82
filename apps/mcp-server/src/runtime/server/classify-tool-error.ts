import { PfrestResponseError, ReadScanLimitError, ReadToolInputError } from '@pfsense-mcp/pfsense-read';
import { TransportError } from '@pfsense-mcp/transports';
import { ToolCallError, ToolErrorCode } from '../../tools/tool-error-code.js';

const TRANSPORT_CODES: Readonly<Record<string, ToolErrorCode>> = Object.freeze({
  CONNECT_TIMEOUT: ToolErrorCode.UPSTREAM_TIMEOUT,
  RESPONSE_TIMEOUT: ToolErrorCode.UPSTREAM_TIMEOUT,
  // The in-flight queue's own refusals: nothing was sent (docs/DESIGN.md §8).
  QUEUE_TIMEOUT: ToolErrorCode.UPSTREAM_SLOW,
  BUSY: ToolErrorCode.BUSY,
  CANCELLED: ToolErrorCode.CANCELLED,
  CONNECTION_REFUSED: ToolErrorCode.UPSTREAM_UNREACHABLE,
  DNS_FAILURE: ToolErrorCode.UPSTREAM_UNREACHABLE,
  UNREACHABLE: ToolErrorCode.UPSTREAM_UNREACHABLE,
  CONNECTION_RESET: ToolErrorCode.UPSTREAM_UNREACHABLE,
  TLS_FAILURE: ToolErrorCode.UPSTREAM_TLS_FAILURE,
  RESPONSE_TOO_LARGE: ToolErrorCode.UPSTREAM_RESPONSE_TOO_LARGE,
  // The appliance answered, but not with a usable HTTP response: a broken status line or headers, or a body
  // that is not UTF-8. That is upstream's fault, not ours, so it is never INTERNAL_ERROR.
  MALFORMED_RESPONSE: ToolErrorCode.UPSTREAM_MALFORMED_RESPONSE,
  BODY_NOT_UTF8: ToolErrorCode.UPSTREAM_MALFORMED_RESPONSE,
  // Any other failure on the way to the appliance (an unclassified socket error).
  TRANSPORT_FAILURE: ToolErrorCode.UPSTREAM_UNREACHABLE,
});

const MAX_DETAIL = 512;
const clip = (text: string): string => (text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL)}…` : text);

/**
 * Maps a failed read to the stable code a caller sees. Only fixed texts and the sanitized facts the typed
 * errors already carry (HTTP status, pfrest response_id) survive; anything unexpected is INTERNAL_ERROR with
 * no detail at all.
 */
export function classifyToolError(error: unknown): ToolCallError {
  if (error instanceof ToolCallError) return error;
  // The summary names arguments, fields and rules, never a value (pfsense-read's read-query.ts); clipped like the
  // SDK's own schema complaints.
  if (error instanceof ReadToolInputError) return new ToolCallError(ToolErrorCode.INVALID_INPUT, { detail: clip(error.summary) });
  if (error instanceof ReadScanLimitError) return new ToolCallError(ToolErrorCode.SCAN_LIMIT_EXCEEDED);
  if (error instanceof TransportError) {
    return new ToolCallError(TRANSPORT_CODES[error.code] ?? ToolErrorCode.INTERNAL_ERROR);
  }
  if (error instanceof PfrestResponseError) {
    const detail = { httpStatus: error.httpStatus === 0 ? null : error.httpStatus, responseId: error.responseId };
    switch (error.code) {
      case 'REDIRECT_REFUSED':
        return new ToolCallError(ToolErrorCode.UPSTREAM_REDIRECT_REFUSED, detail);
      case 'MALFORMED_RESPONSE':
      case 'UNEXPECTED_SHAPE':
        return new ToolCallError(ToolErrorCode.UPSTREAM_MALFORMED_RESPONSE, detail);
      default:
        if (error.httpStatus === 401 || error.httpStatus === 403) return new ToolCallError(ToolErrorCode.UPSTREAM_AUTH_FAILED, detail);
        if (error.httpStatus === 404) return new ToolCallError(ToolErrorCode.UPSTREAM_NOT_FOUND, detail);
        return new ToolCallError(ToolErrorCode.UPSTREAM_ERROR, detail);
    }
  }
  return new ToolCallError(ToolErrorCode.INTERNAL_ERROR);
}
