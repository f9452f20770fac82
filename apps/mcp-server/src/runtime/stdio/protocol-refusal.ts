import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { RequestId } from './read-leading-id.js';

/**
 * The JSON-RPC errors this server writes itself, below the SDK, when a message cannot be served at all. Each has a
 * fixed code and text and carries its stable name in `error.data.code`, so a client branches on a name and never
 * sees SDK or parser text (README "Protocol edges").
 */
export const ProtocolRefusal = Object.freeze({
  PARSE_ERROR: 'PARSE_ERROR',
  INVALID_REQUEST: 'INVALID_REQUEST',
  FRAME_TOO_LARGE: 'FRAME_TOO_LARGE',
  NOT_INITIALIZED: 'NOT_INITIALIZED',
  DUPLICATE_REQUEST_ID: 'DUPLICATE_REQUEST_ID',
  SERVER_STARTING: 'SERVER_STARTING',
} as const);
export type ProtocolRefusal = (typeof ProtocolRefusal)[keyof typeof ProtocolRefusal];

/** The stdio frame limit: one message (one line, without its newline) may be at most this many bytes (10 MiB). */
export const MAX_FRAME_BYTES = 10 * 1024 * 1024;

// JSON-RPC 2.0 §5.1 codes; -32000 is in the range JSON-RPC reserves for implementation-defined server errors.
const REFUSALS: Readonly<Record<ProtocolRefusal, { readonly code: number; readonly message: string }>> = Object.freeze({
  PARSE_ERROR: { code: -32700, message: 'Parse error: the line is not valid JSON in UTF-8.' },
  INVALID_REQUEST: { code: -32600, message: 'Invalid Request: the line is not one JSON-RPC 2.0 message.' },
  FRAME_TOO_LARGE: { code: -32600, message: 'Invalid Request: the message exceeds the 10 MiB frame limit and was discarded.' },
  NOT_INITIALIZED: {
    code: -32000,
    message: 'Server not initialized: send initialize first (or carry the 2026-07-28 _meta envelope on every request).',
  },
  DUPLICATE_REQUEST_ID: { code: -32600, message: 'Invalid Request: a request with this id is still in progress; use a new id.' },
  SERVER_STARTING: { code: -32000, message: 'Server busy: still starting and too many messages are already waiting; retry.' },
});

/** The error response for `refusal`; `id` is null when none could be read (JSON-RPC 2.0 §5). */
export function protocolRefusalResponse(id: RequestId | null, refusal: ProtocolRefusal): JSONRPCMessage {
  const { code, message } = REFUSALS[refusal];
  // The SDK's message type has no null id; JSON-RPC 2.0 requires one when the id could not be read.
  return { jsonrpc: '2.0', id, error: { code, message, data: { code: refusal } } } as unknown as JSONRPCMessage;
}

/** Told about each message refused below the SDK (one log line each; the id is never logged). */
export type RefusalListener = (refusal: ProtocolRefusal) => void;
