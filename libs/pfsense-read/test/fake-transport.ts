// A local fake of the Transport port (same signature as @pfsense-mcp/transports), scripted per call and recording
// every call, so these tests do not depend on the transports library's test helpers.
import type { HttpMethod, Transport, TransportRequestOptions, TransportResponse } from '@pfsense-mcp/transports';

export interface RecordedCall {
  readonly method: string;
  readonly path: string;
  readonly options: TransportRequestOptions | undefined;
}

export type Responder = (call: RecordedCall) => TransportResponse;

export class FakeTransport implements Transport {
  readonly calls: RecordedCall[] = [];
  constructor(private readonly responder: Responder) {}

  async request(method: HttpMethod, path: string, options?: TransportRequestOptions): Promise<TransportResponse> {
    const call = {
      method,
      path,
      options: options === undefined ? undefined : { ...options, query: options.query === undefined ? undefined : { ...options.query } },
    };
    this.calls.push(call);
    return this.responder(call);
  }
}

export function envelope(data: unknown, over: Record<string, unknown> = {}): TransportResponse {
  return {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code: 200, status: 'ok', response_id: 'SUCCESS', message: '', data, ...over }),
  };
}

export function errorEnvelope(httpStatus: number, responseId: string, message: string): TransportResponse {
  return {
    status: httpStatus,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code: httpStatus, status: 'error', response_id: responseId, message, data: [] }),
  };
}

export function raw(status: number, body: string, headers: Record<string, string> = {}): TransportResponse {
  return { status, headers, body };
}
