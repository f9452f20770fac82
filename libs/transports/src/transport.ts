import type { HttpMethod } from '@pfsense-mcp/foundation';

export interface TransportRequestOptions {
  /** Query parameters, encoded by the transport. */
  readonly query?: Readonly<Record<string, string | number>>;
  /** An already-serialized JSON text. Absent means "no body" (and no Content-Type header). */
  readonly body?: string;
  /**
   * Aborts the call: a queued call leaves the queue without being sent, a call on the wire has its
   * connection destroyed (the error then says whether any byte was written). Code `CANCELLED`.
   */
  readonly signal?: AbortSignal;
}

export interface TransportResponse {
  readonly status: number;
  /** Lower-case header names; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  /** The whole body, decoded as UTF-8; never larger than the transport's cap. */
  readonly body: string;
}

/**
 * The port every upstream call goes through. One call = at most one upstream request: no
 * implementation retries, follows a redirect or sends anything the caller did not ask for.
 * Failures are TransportError subclasses that say whether any byte of the request was written.
 */
export interface Transport {
  request(method: HttpMethod, path: string, options?: TransportRequestOptions): Promise<TransportResponse>;
}
