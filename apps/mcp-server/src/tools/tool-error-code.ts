import { CodedError } from '@pfsense-mcp/foundation';

/**
 * The stable error codes an MCP caller can see in a failed tool result. The text block of such a result is
 * `{"error":{"code":<code>,"message":<fixed sanitized text>}}`; callers branch on `code`.
 */
export const ToolErrorCode = Object.freeze({
  INVALID_INPUT: 'INVALID_INPUT',
  UNKNOWN_TOOL: 'UNKNOWN_TOOL',
  UPSTREAM_UNREACHABLE: 'UPSTREAM_UNREACHABLE',
  UPSTREAM_TLS_FAILURE: 'UPSTREAM_TLS_FAILURE',
  UPSTREAM_TIMEOUT: 'UPSTREAM_TIMEOUT',
  UPSTREAM_SLOW: 'UPSTREAM_SLOW',
  BUSY: 'BUSY',
  CANCELLED: 'CANCELLED',
  UPSTREAM_RESPONSE_TOO_LARGE: 'UPSTREAM_RESPONSE_TOO_LARGE',
  UPSTREAM_REDIRECT_REFUSED: 'UPSTREAM_REDIRECT_REFUSED',
  UPSTREAM_AUTH_FAILED: 'UPSTREAM_AUTH_FAILED',
  UPSTREAM_NOT_FOUND: 'UPSTREAM_NOT_FOUND',
  UPSTREAM_ERROR: 'UPSTREAM_ERROR',
  UPSTREAM_MALFORMED_RESPONSE: 'UPSTREAM_MALFORMED_RESPONSE',
  RESULT_TOO_LARGE: 'RESULT_TOO_LARGE',
  SCAN_LIMIT_EXCEEDED: 'SCAN_LIMIT_EXCEEDED',
  INTERNAL_ERROR: 'INTERNAL_ERROR',
} as const);
export type ToolErrorCode = (typeof ToolErrorCode)[keyof typeof ToolErrorCode];

export const TOOL_ERROR_MESSAGES: Readonly<Record<ToolErrorCode, string>> = Object.freeze({
  INVALID_INPUT: 'The arguments do not match the tool input schema.',
  UNKNOWN_TOOL: 'No tool of that name is registered on this server.',
  UPSTREAM_UNREACHABLE: 'The pfSense API could not be reached.',
  UPSTREAM_TLS_FAILURE: 'The TLS connection to the pfSense API failed (certificate or handshake).',
  UPSTREAM_TIMEOUT: 'The pfSense API did not answer in time.',
  UPSTREAM_SLOW: 'The pfSense appliance is slow: earlier calls still hold every request slot, so this one was not sent; retry later.',
  BUSY: 'Too many calls are already waiting for the pfSense API; this one was not sent; retry later.',
  CANCELLED: 'The call was cancelled by the client.',
  UPSTREAM_RESPONSE_TOO_LARGE: 'The pfSense API response exceeded the size limit and was discarded; use a smaller limit.',
  UPSTREAM_REDIRECT_REFUSED: 'The pfSense API answered with a redirect, which is never followed; check PFSENSE_URL.',
  UPSTREAM_AUTH_FAILED: 'The pfSense API refused the credentials or the key lacks the privilege for this endpoint.',
  UPSTREAM_NOT_FOUND: 'The pfSense API endpoint was not found (package not installed or different pfREST version).',
  UPSTREAM_ERROR: 'The pfSense API returned an error.',
  UPSTREAM_MALFORMED_RESPONSE: 'The pfSense API response did not have the expected structure.',
  RESULT_TOO_LARGE: 'The result exceeds the size limit for one tool result.',
  SCAN_LIMIT_EXCEEDED:
    'This filter is applied by the server, which would have to read more than 10,000 rows; add a filter pfSense applies itself (eq, ne, contains, startswith, endswith, lt, lte, gt, gte on plain text, numbers or booleans).',
  INTERNAL_ERROR: 'The server failed to complete the call.',
});

export const TOOL_ERROR_CODES: ReadonlySet<string> = new Set(Object.values(ToolErrorCode));

/** A tool failure that is safe to show: a stable code plus optional sanitized detail (status, response id). */
export class ToolCallError extends CodedError<ToolErrorCode> {
  override readonly name = 'ToolCallError';
  readonly httpStatus: number | null;
  readonly responseId: string | null;
  /** Which argument and rule (e.g. `description: CONTROL_CHARACTER`) — never the argument's value. */
  readonly detail: string | null;

  constructor(code: ToolErrorCode, detail: { httpStatus?: number | null; responseId?: string | null; detail?: string | null } = {}) {
    super(code, TOOL_ERROR_MESSAGES[code]);
    this.httpStatus = detail.httpStatus ?? null;
    this.responseId = detail.responseId ?? null;
    this.detail = detail.detail ?? null;
  }
}

/** The JSON text of a failed tool result (the only content of an `isError` result). */
export function toolErrorText(error: ToolCallError): string {
  const body: Record<string, string | number> = { code: error.code, message: error.message };
  if (error.httpStatus !== null) body['http_status'] = error.httpStatus;
  if (error.responseId !== null) body['response_id'] = error.responseId;
  if (error.detail !== null) body['detail'] = error.detail;
  return JSON.stringify({ error: body });
}
