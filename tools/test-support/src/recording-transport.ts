// The spy of the gate-order and exact-bytes tests: forwards every call unchanged and records what went out.
import type { HttpMethod, Transport } from '@pfsense-mcp/transports';

export interface ForwardedCall {
  readonly method: HttpMethod;
  readonly path: string;
  /** The exact body text, or undefined for none. */
  readonly body: string | undefined;
}

export class RecordingTransport implements Transport {
  readonly calls: ForwardedCall[] = [];
  readonly #inner: Transport;

  constructor(inner: Transport) {
    if (inner === null || typeof inner !== 'object' || typeof inner.request !== 'function')
      throw new TypeError('inner must be a Transport');
    this.#inner = inner;
  }

  request(...args: Parameters<Transport['request']>): ReturnType<Transport['request']> {
    const [method, path, options] = args;
    this.calls.push(Object.freeze({ method, path, body: options?.body }));
    return this.#inner.request(...args);
  }
}
