import { PfrestEnvelopeSchema } from '@pfsense-mcp/pfsense-read';
import { EffectKnowledge } from './effect-knowledge.js';
import { classified } from './send-classification.js';
import type { SendClassification } from './send-classification.js';

/** The adapter's verdict on a received response (its parseResponse, bound to the request it built). */
export type ResponseAcceptor = (view: { readonly status: number; readonly body: string }) => boolean;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * pfrest's success envelope, exactly (pfrest's documented success response): code 200, status "ok",
 * response_id "SUCCESS", parsed with the read client's envelope schema. Checked by the executor itself,
 * before any adapter sees the body, so a permissive adapter cannot turn a proxy page or an error envelope
 * delivered with HTTP 200 into a success (docs/DESIGN.md §4 step 8).
 */
function isSuccessEnvelope(body: string): boolean {
  const parsed = PfrestEnvelopeSchema.safeParse(parseJson(body));
  return parsed.success && parsed.data.code === 200 && parsed.data.status === 'ok' && parsed.data.response_id === 'SUCCESS';
}

/** A pfrest error envelope answering this status: {code: status, status, response_id, data}. */
function isErrorEnvelopeFor(status: number, body: string): boolean {
  const parsed = PfrestEnvelopeSchema.safeParse(parseJson(body));
  return parsed.success && parsed.data.code === status;
}

/**
 * Classifies a received response (docs/DESIGN.md §4 step 8, strict on purpose):
 * - HTTP 200 with pfrest's success envelope (checked here) and `accepts` returns exactly `true` → VERIFIED_SUCCESS;
 * - 4xx whose body is a pfrest error envelope with the same code → VERIFIED_FAILURE (pfSense rejected it);
 * - everything else — a 200 without the success envelope (HTML, malformed or non-success body: the adapter
 *   is not asked), a 200 the adapter does not accept, another
 *   2xx, 3xx, 5xx, a 4xx without an envelope (a proxy page proves nothing), an unreadable response, an
 *   acceptor that throws → AMBIGUOUS.
 */
export function classifySendResponse(response: unknown, accepts: ResponseAcceptor): SendClassification {
  if (response === null || typeof response !== 'object') return classified(EffectKnowledge.AMBIGUOUS, 'MALFORMED_RESPONSE');
  const { status, body } = response as { status?: unknown; body?: unknown };
  if (typeof status !== 'number' || !Number.isInteger(status) || typeof body !== 'string') {
    return classified(EffectKnowledge.AMBIGUOUS, 'MALFORMED_RESPONSE');
  }
  if (status === 200) {
    if (!isSuccessEnvelope(body)) return classified(EffectKnowledge.AMBIGUOUS, 'NOT_SUCCESS_ENVELOPE_200');
    let accepted: boolean;
    try {
      accepted = accepts(Object.freeze({ status, body })) === true;
    } catch {
      accepted = false;
    }
    return accepted
      ? classified(EffectKnowledge.VERIFIED_SUCCESS, 'VERIFIED_SUCCESS')
      : classified(EffectKnowledge.AMBIGUOUS, 'UNACCEPTED_200');
  }
  if (status >= 400 && status <= 499) {
    return isErrorEnvelopeFor(status, body)
      ? classified(EffectKnowledge.VERIFIED_FAILURE, 'REJECTED_4XX')
      : classified(EffectKnowledge.AMBIGUOUS, 'UNRECOGNIZED_4XX');
  }
  if (status >= 200 && status <= 299) return classified(EffectKnowledge.AMBIGUOUS, 'UNEXPECTED_2XX');
  if (status >= 300 && status <= 399) return classified(EffectKnowledge.AMBIGUOUS, 'REDIRECT_3XX');
  if (status >= 500 && status <= 599) return classified(EffectKnowledge.AMBIGUOUS, 'SERVER_ERROR_5XX');
  return classified(EffectKnowledge.AMBIGUOUS, 'UNEXPECTED_STATUS');
}
