// The pfrest v2 response envelope: {code, status, response_id, message, data} (pfrest's documentation).
// Status words are the lower-case HTTP reason phrases pfrest's Response classes carry.

export const STATUS_WORDS: Readonly<Record<number, string>> = Object.freeze({
  200: 'ok',
  400: 'bad request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not found',
  405: 'method not allowed',
  406: 'not acceptable',
  409: 'conflict',
  415: 'unsupported media type',
  422: 'unprocessable content',
  424: 'failed dependency',
  500: 'internal server error',
  503: 'service unavailable',
});

export interface Envelope {
  readonly code: number;
  readonly status: string;
  readonly response_id: string;
  readonly message: string;
  readonly data: unknown;
}

export function successEnvelope(data: unknown): Envelope {
  return { code: 200, status: 'ok', response_id: 'SUCCESS', message: '', data };
}

export function errorEnvelope(code: number, responseId: string, message: string): Envelope {
  // pfrest replaces quotes in messages with backticks.
  const safe = message.replaceAll('"', '`').replaceAll("'", '`');
  return { code, status: STATUS_WORDS[code] ?? 'error', response_id: responseId, message: safe, data: [] };
}
