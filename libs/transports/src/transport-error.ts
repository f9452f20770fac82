// Typed transport failures. Every one says whether any byte of the request may have reached the
// wire (`requestWritten`), because the executor classifies a write as PROVEN_NONE only when nothing
// was written (docs/DESIGN.md §4 step 8); anything uncertain must say `true`.
// Messages are fixed texts: never a URL, a header, a body or the upstream error's own message.
import { CodedError } from '@pfsense-mcp/foundation';

export class TransportError extends CodedError<string> {
  override readonly name: string = 'TransportError';
  readonly requestWritten: boolean;
  /** The low-level error code (e.g. ECONNREFUSED), when there was one; never a message. */
  readonly upstreamCode: string | null;

  constructor(message: string, code: string, requestWritten: boolean, upstreamCode: string | null = null) {
    super(code, message);
    this.requestWritten = requestWritten;
    this.upstreamCode = upstreamCode;
  }
}

export type TransportTimeoutCode = 'CONNECT_TIMEOUT' | 'RESPONSE_TIMEOUT';

export class TransportTimeoutError extends TransportError {
  override readonly name: string = 'TransportTimeoutError';
  declare readonly code: TransportTimeoutCode;

  constructor(code: TransportTimeoutCode, requestWritten: boolean, upstreamCode: string | null = null) {
    super(
      code === 'CONNECT_TIMEOUT' ? 'transport: timed out while connecting' : 'transport: timed out waiting for the response',
      code,
      requestWritten,
      upstreamCode,
    );
  }
}

export type TransportConnectionCode = 'CONNECTION_REFUSED' | 'DNS_FAILURE' | 'UNREACHABLE' | 'TLS_FAILURE' | 'CONNECTION_RESET';

const CONNECTION_MESSAGES: Readonly<Record<TransportConnectionCode, string>> = Object.freeze({
  CONNECTION_REFUSED: 'transport: connection refused',
  DNS_FAILURE: 'transport: host name could not be resolved',
  UNREACHABLE: 'transport: host unreachable',
  TLS_FAILURE: 'transport: TLS handshake or certificate verification failed',
  CONNECTION_RESET: 'transport: connection reset or closed before a complete response',
});

export class TransportConnectionError extends TransportError {
  override readonly name: string = 'TransportConnectionError';
  declare readonly code: TransportConnectionCode;

  constructor(code: TransportConnectionCode, requestWritten: boolean, upstreamCode: string | null = null) {
    super(CONNECTION_MESSAGES[code], code, requestWritten, upstreamCode);
  }
}

/** The response exceeded the byte cap; its body was discarded and the connection destroyed. */
export class ResponseTooLargeError extends TransportError {
  override readonly name: string = 'ResponseTooLargeError';
  declare readonly code: 'RESPONSE_TOO_LARGE';
  readonly limitBytes: number;

  constructor(limitBytes: number) {
    super(`transport: response larger than ${limitBytes} bytes, discarded`, 'RESPONSE_TOO_LARGE', true);
    this.limitBytes = limitBytes;
  }
}

/** Bad transport options (at construction). Nothing was sent. */
export class TransportConfigError extends TransportError {
  override readonly name: string = 'TransportConfigError';

  constructor(message: string, code = 'INVALID_OPTIONS') {
    super(message, code, false);
  }
}

/** A request refused by the transport before any network activity (bad method, path, query, body). */
export class InvalidRequestError extends TransportError {
  override readonly name: string = 'InvalidRequestError';

  constructor(message: string) {
    super(message, 'INVALID_REQUEST', false);
  }
}
