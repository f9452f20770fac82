import { TransportConnectionError, TransportError, TransportTimeoutError, type TransportConnectionCode } from './transport-error.js';

/**
 * How far the request got, observed on the socket itself:
 * - 'not-started': no socket was ever assigned (the failure happened inside the client library);
 * - 'connecting': a fresh socket that never finished TCP connect (http) or the TLS handshake
 *   (https). Node buffers the request until then, so no byte of it can have been written;
 * - 'connected': the request was (or may have been) handed to the connection.
 */
export type WritePhase = 'not-started' | 'connecting' | 'connected';

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME']);
const UNREACHABLE_CODES = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN', 'EADDRNOTAVAIL']);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE', 'ERR_READING_RESPONSE_STREAM']);
const TLS_CODES = new Set([
  'EPROTO',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_CRL',
  'HOSTNAME_MISMATCH',
  'INVALID_CA',
  'INVALID_PURPOSE',
  'PATH_LENGTH_EXCEEDED',
]);
const CONNECT_TIMEOUT_EVENTS = new Set(['lookup', 'connect', 'secureConnect']);

function isTlsCode(code: string): boolean {
  return TLS_CODES.has(code) || code.startsWith('CERT_') || code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_');
}

function stringProp(value: unknown, key: string): string | null {
  if (value === null || typeof value !== 'object') return null;
  const v = (value as Record<string, unknown>)[key];
  return typeof v === 'string' ? v : null;
}

/** The innermost low-level code: a wrapping client library copies it, but a cause chain may hold a more precise one. */
function lowLevelCode(error: unknown): string | null {
  const own = stringProp(error, 'code');
  const cause = error !== null && typeof error === 'object' ? (error as { cause?: unknown }).cause : undefined;
  const causeCode = stringProp(cause, 'code');
  if (own !== null && own !== 'ERR_GOT_REQUEST_ERROR') return own;
  return causeCode ?? own;
}

/**
 * Maps a client-library failure to a typed TransportError. Never copies the original message (it
 * may hold the URL), never keeps the original as `cause` (it holds the request options, headers
 * included). Known pre-connection failures say "not written" only when the socket agrees; reset and
 * timeout follow the socket; anything unrecognized says "written" — the ambiguous side.
 */
export function classifyTransportFailure(error: unknown, phase: WritePhase): TransportError {
  const code = lowLevelCode(error);
  const name = stringProp(error, 'name');
  const event = stringProp(error, 'event');
  // A known failure kind: the socket phase decides; with no socket observed, only failures that
  // cannot happen after connecting count as unwritten.
  const written = (canHappenAfterConnect: boolean): boolean =>
    phase === 'connected' ? true : phase === 'connecting' ? false : canHappenAfterConnect;

  if (name === 'TimeoutError' && event !== null) {
    if (CONNECT_TIMEOUT_EVENTS.has(event)) {
      return new TransportTimeoutError('CONNECT_TIMEOUT', written(false), 'ETIMEDOUT');
    }
    return new TransportTimeoutError('RESPONSE_TIMEOUT', written(true), 'ETIMEDOUT');
  }
  if (code === null) return new TransportError('transport: request failed', 'TRANSPORT_FAILURE', true);
  if (code === 'ETIMEDOUT') {
    return phase === 'connecting'
      ? new TransportTimeoutError('CONNECT_TIMEOUT', false, code)
      : new TransportTimeoutError('RESPONSE_TIMEOUT', true, code);
  }
  let kind: TransportConnectionCode | null = null;
  if (code === 'ECONNREFUSED') kind = 'CONNECTION_REFUSED';
  else if (DNS_CODES.has(code)) kind = 'DNS_FAILURE';
  else if (UNREACHABLE_CODES.has(code)) kind = 'UNREACHABLE';
  else if (isTlsCode(code)) kind = 'TLS_FAILURE';
  if (kind !== null) {
    // A TLS failure after the handshake (a renegotiation) shows as phase 'connected' -> written.
    return new TransportConnectionError(kind, written(false), code);
  }
  if (RESET_CODES.has(code)) return new TransportConnectionError('CONNECTION_RESET', written(true), code);
  if (code.startsWith('HPE_')) {
    return new TransportError('transport: malformed HTTP response', 'MALFORMED_RESPONSE', true, code);
  }
  return new TransportError('transport: request failed', 'TRANSPORT_FAILURE', true, safeCode(code));
}

// Only short upper-case identifiers are echoed; anything else could be text chosen by a peer.
function safeCode(code: string): string | null {
  return /^[A-Z][A-Z0-9_]{0,63}$/.test(code) ? code : null;
}
