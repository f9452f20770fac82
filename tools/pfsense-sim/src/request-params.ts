// Where pfrest reads request parameters from. GET normally reads the query string; but pfrest picks its
// content handler from Content-Type, so a GET sent with `Content-Type: application/json` reads the (usually
// empty) JSON body instead and its query string is ignored. POST/PATCH read the JSON body; DELETE reads the
// query string and, when one is sent, the JSON body.
import { ApiError } from './api-error.js';
import type { JsonObject } from './model-shaper.js';

export function queryToParams(search: URLSearchParams): JsonObject {
  const out: JsonObject = {};
  for (const [rawKey, value] of search) {
    const isList = rawKey.endsWith('[]');
    const key = isList ? rawKey.slice(0, -2) : rawKey;
    const prev = out[key];
    if (isList) out[key] = Array.isArray(prev) ? [...(prev as unknown[]), value] : [value];
    else out[key] = prev === undefined ? value : Array.isArray(prev) ? [...(prev as unknown[]), value] : [prev, value];
  }
  return out;
}

function decodeJsonBody(body: Buffer): JsonObject {
  const text = body.toString('utf8').trim();
  if (text === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError(400, 'JSON_CONTENT_HANDLER_COULD_NOT_DECODE_JSON', 'Request body could not be decoded as JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ApiError(400, 'JSON_CONTENT_HANDLER_COULD_NOT_DECODE_JSON', 'Request body must be a JSON object.');
  }
  return parsed as JsonObject;
}

export function isJsonContentType(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() === 'application/json';
}

export function requestParams(method: string, contentType: string | undefined, search: URLSearchParams, body: Buffer): JsonObject {
  const json = isJsonContentType(contentType);
  if (method === 'GET') return json ? decodeJsonBody(body) : queryToParams(search);
  if (method === 'DELETE') return { ...queryToParams(search), ...(body.length > 0 ? decodeJsonBody(body) : {}) };
  return decodeJsonBody(body);
}
