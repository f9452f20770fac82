import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { parseJsonRpcMessage } from './json-rpc-message-schema.js';
import { ProtocolRefusal } from './protocol-refusal.js';
import type { RequestId } from './read-leading-id.js';

/** What one line of input is: a message to serve, a refusal to answer (with the id when one can be read), or nothing. */
export type DecodedLine =
  | { readonly kind: 'message'; readonly message: JSONRPCMessage }
  | { readonly kind: 'refused'; readonly refusal: ProtocolRefusal; readonly id: RequestId | null }
  | { readonly kind: 'blank' };

const BLANK = Object.freeze({ kind: 'blank' as const });

/**
 * Decodes one stdio frame strictly: UTF-8 without replacement (a lone continuation byte is an error, not U+FFFD),
 * then JSON, then the JSON-RPC 2.0 message shape. A line that is not JSON is a Parse error and one that is JSON but
 * no message (a batch, a bare value, a wrong shape) an Invalid Request (JSON-RPC 2.0 §5.1); blank lines are skipped.
 */
export function decodeLine(bytes: Buffer): DecodedLine {
  if (!Buffer.isBuffer(bytes)) throw new TypeError('decodeLine: "bytes" must be a Buffer');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { kind: 'refused', refusal: ProtocolRefusal.PARSE_ERROR, id: null };
  }
  if (text.endsWith('\r')) text = text.slice(0, -1);
  if (text.trim() === '') return BLANK;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'refused', refusal: ProtocolRefusal.PARSE_ERROR, id: null };
  }
  try {
    return { kind: 'message', message: parseJsonRpcMessage(value) };
  } catch {
    return { kind: 'refused', refusal: ProtocolRefusal.INVALID_REQUEST, id: idOf(value) };
  }
}

/** The id of a malformed object when it has a usable one (JSON-RPC 2.0 §5: null when it cannot be determined). */
function idOf(value: unknown): RequestId | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : null;
}
