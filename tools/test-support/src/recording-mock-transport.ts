// A test double of the transports port; it lives in test support because only tests may use it.
import { validateRequest } from '@pfsense-mcp/transports';
import type { HttpMethod, Transport, TransportRequestOptions, TransportResponse } from '@pfsense-mcp/transports';

/** One call as the mock saw it (after the same validation the HTTP transport applies). */
export interface RecordedCall {
  readonly index: number;
  readonly method: HttpMethod;
  readonly path: string;
  readonly query: Readonly<Record<string, string | number>> | null;
  readonly body: string | null;
}

/** A scripted outcome: a response, or an error to throw (typically a TransportError). */
export type MockReply =
  { readonly status: number; readonly headers?: Readonly<Record<string, string>>; readonly body?: string } | { readonly error: Error };

export type MockHandler = (call: RecordedCall) => MockReply | Promise<MockReply>;

export interface RecordingMockTransportScript {
  /** Used first, one per call, in order. */
  readonly replies?: readonly MockReply[];
  /** Used when the queue is empty. */
  readonly handler?: MockHandler;
}

export class MockScriptExhaustedError extends Error {
  override readonly name: string = 'MockScriptExhaustedError';
  readonly code = 'MOCK_SCRIPT_EXHAUSTED';
  readonly callIndex: number;

  constructor(callIndex: number) {
    super(`RecordingMockTransport: no scripted reply for call #${callIndex}`);
    this.callIndex = callIndex;
  }
}

function checkReply(reply: unknown, name: string): MockReply {
  if (reply === null || typeof reply !== 'object') throw new TypeError(`${name} must be a reply object`);
  if ('error' in reply) {
    if (!((reply as { error: unknown }).error instanceof Error)) throw new TypeError(`${name}.error must be an Error`);
    return reply as MockReply;
  }
  const { status, headers, body } = reply as { status?: unknown; headers?: unknown; body?: unknown };
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599) {
    throw new TypeError(`${name}.status must be an integer in 100..599`);
  }
  if (body !== undefined && typeof body !== 'string') throw new TypeError(`${name}.body must be a string`);
  if (headers !== undefined) {
    if (headers === null || typeof headers !== 'object') throw new TypeError(`${name}.headers must be an object`);
    for (const v of Object.values(headers)) {
      if (typeof v !== 'string') throw new TypeError(`${name}.headers values must be strings`);
    }
  }
  return reply as MockReply;
}

/**
 * A Transport for tests: scripted replies (queue, then handler), every call recorded. Calls are
 * validated exactly like the HTTP transport validates them, so a bad call fails here too.
 */
export class RecordingMockTransport implements Transport {
  readonly #queue: MockReply[] = [];
  readonly #handler: MockHandler | undefined;
  readonly #calls: RecordedCall[] = [];

  constructor(script: RecordingMockTransportScript = {}) {
    if (script === null || typeof script !== 'object') {
      throw new TypeError('RecordingMockTransport: "script" must be an object');
    }
    if (script.handler !== undefined && typeof script.handler !== 'function') {
      throw new TypeError('RecordingMockTransport: "script.handler" must be a function');
    }
    this.#handler = script.handler;
    if (script.replies !== undefined) this.enqueue(...script.replies);
  }

  /** Appends replies to the queue. */
  enqueue(...replies: readonly MockReply[]): this {
    replies.forEach((reply, i) => this.#queue.push(checkReply(reply, `RecordingMockTransport: reply[${i}]`)));
    return this;
  }

  /** Every call so far, in order (a frozen snapshot). */
  get calls(): readonly RecordedCall[] {
    return Object.freeze([...this.#calls]);
  }

  get callCount(): number {
    return this.#calls.length;
  }

  /** Replies not used yet. */
  get pendingReplies(): number {
    return this.#queue.length;
  }

  async request(method: HttpMethod, path: string, options?: TransportRequestOptions): Promise<TransportResponse> {
    const validated = validateRequest(method, path, options);
    const call: RecordedCall = Object.freeze({ index: this.#calls.length, ...validated });
    this.#calls.push(call);
    const queued = this.#queue.shift();
    let reply: MockReply;
    if (queued !== undefined) reply = queued;
    else if (this.#handler !== undefined) reply = checkReply(await this.#handler(call), 'RecordingMockTransport: handler reply');
    else throw new MockScriptExhaustedError(call.index);
    if ('error' in reply) throw reply.error;
    return Object.freeze({
      status: reply.status,
      headers: Object.freeze(Object.fromEntries(Object.entries(reply.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]))),
      body: reply.body ?? '',
    });
  }
}
