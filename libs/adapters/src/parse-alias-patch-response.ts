import { isAliasDescriptionRequest } from './alias-description-request.js';
import type { AliasDescriptionRequest } from './alias-description-request.js';
import { ALIAS_TARGET_FIELDS, parseAliasTarget } from './alias-target.js';
import { projectKeys } from './parse-closed-object.js';
import type { AliasTarget } from './alias-target.js';
import type { ParsedWriteResponse, WriteResponseView } from './capability-adapter.js';

function reject(reason: string): ParsedWriteResponse<AliasTarget> {
  return Object.freeze({ accepted: false, reason });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Accepts only HTTP 200 with a pfrest success envelope (code 200, status "ok", response_id "SUCCESS") whose
 * `data` is a well-formed alias with the request's id, name and description. Like readAliasTarget, `data` is
 * projected to the six known fields first: real appliances return fields the pinned model does not list. Anything else is not a proven success (the
 * executor then relies on its authoritative re-read and classifies it as ambiguous). Never throws on
 * upstream data, and never returns upstream text.
 */
export function parseAliasPatchResponse(response: WriteResponseView, request: AliasDescriptionRequest): ParsedWriteResponse<AliasTarget> {
  if (!isAliasDescriptionRequest(request)) return reject('NOT_ADAPTER_REQUEST');
  if (response === null || typeof response !== 'object') return reject('NO_RESPONSE');
  if (response.status !== 200) return reject('NOT_HTTP_200');
  if (typeof response.body !== 'string') return reject('NO_BODY');
  const envelope = parseJson(response.body);
  if (envelope === null || typeof envelope !== 'object' || Array.isArray(envelope)) return reject('NOT_ENVELOPE');
  const { code, status, response_id: responseId, data } = envelope as Record<string, unknown>;
  if (code !== 200 || status !== 'ok' || responseId !== 'SUCCESS') return reject('NOT_SUCCESS_ENVELOPE');
  let target: AliasTarget;
  try {
    target = parseAliasTarget(projectKeys(data, ALIAS_TARGET_FIELDS), 'data');
  } catch {
    return reject('DATA_NOT_ALIAS');
  }
  if (target.id !== request.id || target.name !== request.name) return reject('DATA_OTHER_ALIAS');
  if (target.descr !== request.descr) return reject('DATA_DESCRIPTION_DIFFERS');
  return Object.freeze({ accepted: true, target });
}
