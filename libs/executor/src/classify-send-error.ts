import {
  ResponseTooLargeError,
  TransportConnectionError,
  TransportError,
  TransportTimeoutError,
  WriteRefusalError,
} from '@pfsense-mcp/write-client';
import { EffectKnowledge } from './effect-knowledge.js';
import { classified } from './send-classification.js';
import type { SendClassification } from './send-classification.js';

/**
 * Classifies an error thrown by `WriteApiClient.send` (docs/DESIGN.md §4 step 8). PROVEN_NONE only when the
 * error itself proves nothing was written: the write client's own refusal (thrown before the transport), or
 * a transport error whose `requestWritten` is exactly `false` (refused, DNS, TLS, connect timeout). Every
 * other error — timeout or reset after the request was written, an oversized response, anything unknown —
 * is AMBIGUOUS. No error is ever a reason to send again.
 */
export function classifySendError(error: unknown): SendClassification {
  if (error instanceof WriteRefusalError) return classified(EffectKnowledge.PROVEN_NONE, 'REFUSED_BEFORE_SEND');
  if (error instanceof TransportError && error.requestWritten === false) {
    return classified(EffectKnowledge.PROVEN_NONE, 'NOT_WRITTEN');
  }
  if (error instanceof ResponseTooLargeError) return classified(EffectKnowledge.AMBIGUOUS, 'RESPONSE_TOO_LARGE');
  if (error instanceof TransportTimeoutError) return classified(EffectKnowledge.AMBIGUOUS, 'TIMEOUT_AFTER_WRITE');
  if (error instanceof TransportConnectionError) return classified(EffectKnowledge.AMBIGUOUS, 'CONNECTION_LOST_AFTER_WRITE');
  if (error instanceof TransportError) return classified(EffectKnowledge.AMBIGUOUS, 'TRANSPORT_FAILURE');
  return classified(EffectKnowledge.AMBIGUOUS, 'UNKNOWN_SEND_ERROR');
}
