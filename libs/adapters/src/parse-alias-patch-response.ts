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
 * What every alias PATCH answer must be, whichever capability sent it (docs/DESIGN.md §5): HTTP 200 with pfrest's
 * success envelope (code 200, status "ok", response_id "SUCCESS") whose `data`, projected to the six known fields
 * (real appliances return fields the pinned model does not list), is a well-formed alias with the request's id
 * and name. Returns that alias, or the value-free reason it is not a proven success. Never throws on upstream
 * data and never returns upstream text; each capability then checks the fields it changed.
 */
export function aliasOfPatchResponse(
  response: WriteResponseView,
  request: { readonly id: number; readonly name: string },
): { readonly target: AliasTarget } | { readonly reason: string } {
  if (response === null || typeof response !== 'object') return { reason: 'NO_RESPONSE' };
  if (response.status !== 200) return { reason: 'NOT_HTTP_200' };
  if (typeof response.body !== 'string') return { reason: 'NO_BODY' };
  const envelope = parseJson(response.body);
  if (envelope === null || typeof envelope !== 'object' || Array.isArray(envelope)) return { reason: 'NOT_ENVELOPE' };
  const { code, status, response_id: responseId, data } = envelope as Record<string, unknown>;
  if (code !== 200 || status !== 'ok' || responseId !== 'SUCCESS') return { reason: 'NOT_SUCCESS_ENVELOPE' };
  let target: AliasTarget;
  try {
    target = parseAliasTarget(projectKeys(data, ALIAS_TARGET_FIELDS), 'data');
  } catch {
    return { reason: 'DATA_NOT_ALIAS' };
  }
  if (target.id !== request.id || target.name !== request.name) return { reason: 'DATA_OTHER_ALIAS' };
  return { target };
}

/**
 * Accepts only an alias PATCH answer (aliasOfPatchResponse) holding the request's description. Anything else is
 * not a proven success (the executor then relies on its authoritative re-read and classifies it as ambiguous).
 */
export function parseAliasPatchResponse(response: WriteResponseView, request: AliasDescriptionRequest): ParsedWriteResponse<AliasTarget> {
  if (!isAliasDescriptionRequest(request)) return reject('NOT_ADAPTER_REQUEST');
  const answer = aliasOfPatchResponse(response, request);
  if ('reason' in answer) return reject(answer.reason);
  const target = answer.target;
  if (target.descr !== request.descr) return reject('DATA_DESCRIPTION_DIFFERS');
  return Object.freeze({ accepted: true, target });
}
