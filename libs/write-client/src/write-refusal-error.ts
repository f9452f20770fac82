import { CodedError } from '@pfsense-mcp/foundation';

/** Why `WriteApiClient.send` refused. Stable strings. */
export type WriteRefusalCode = 'UNKNOWN_ENDPOINT' | 'METHOD_MISMATCH' | 'UNVERIFIED_ENDPOINT' | 'INVALID_REQUEST' | 'BODY_TOO_LARGE';

/**
 * A write refused before any network call: nothing was sent, so the executor may classify it as
 * PROVEN_NONE (docs/DESIGN.md §4 step 8). Never carries the request body.
 */
export class WriteRefusalError extends CodedError<WriteRefusalCode> {
  override readonly name = 'WriteRefusalError';
  /** The symbol the caller asked for, when it was a short identifier; otherwise null. */
  readonly endpointSymbol: string | null;
  /** Always false: the refusal happened before the transport was called. */
  readonly requestWritten = false;

  constructor(code: WriteRefusalCode, endpointSymbol: string | null, detail: string) {
    super(code, `WriteApiClient.send: ${detail} (${code})`);
    this.endpointSymbol = endpointSymbol;
  }
}
