import { PFREST_RESPONSE_IDS } from './pfrest-response-ids.js';
import { CodedError } from '@pfsense-mcp/foundation';

/** Why an upstream response was refused. Stable strings; callers branch on them. */
export type PfrestResponseErrorCode =
  | 'UPSTREAM_ERROR' // a non-success envelope or HTTP status
  | 'REDIRECT_REFUSED' // a 3xx (redirects are never followed)
  | 'MALFORMED_RESPONSE' // a success status whose body is not a pfrest envelope
  | 'UNEXPECTED_SHAPE' // an envelope whose `data` does not fit the read model
  | 'PAGE_LIMIT_EXCEEDED'; // readAllPages reached its page bound without a short page

/** What a `response_id` outside pfrest's known ids becomes: a hostile upstream cannot plant a token. */
export const UNKNOWN_RESPONSE_ID = 'UNKNOWN';

/**
 * A refused pfrest response, sanitized by construction: it carries the HTTP status, pfrest's `response_id`
 * (only one of pfrest's known ids, else `UNKNOWN`) and, for shape errors, the field path inside `data` — never the
 * upstream `message`, the body or a header.
 */
export class PfrestResponseError extends CodedError<PfrestResponseErrorCode> {
  override readonly name = 'PfrestResponseError';
  readonly httpStatus: number;
  readonly responseId: string | null;
  /** Field path inside `data` for UNEXPECTED_SHAPE (our own model's field names and indices), else null. */
  readonly dataPath: string | null;

  constructor(code: PfrestResponseErrorCode, httpStatus: number, responseId: unknown = null, dataPath: string | null = null) {
    // Only pfrest's own ids pass through (upper-cased as pfrest does); any other string is UNKNOWN.
    const id = typeof responseId !== 'string' ? null : PFREST_RESPONSE_IDS.has(responseId) ? responseId : UNKNOWN_RESPONSE_ID;
    const status = Number.isSafeInteger(httpStatus) ? httpStatus : 0;
    super(
      code,
      `pfREST read refused: ${code} (HTTP ${status}${id === null ? '' : `, ${id}`}${dataPath === null ? '' : `, at ${dataPath}`})`,
    );
    this.httpStatus = status;
    this.responseId = id;
    this.dataPath = dataPath;
  }
}
