import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { layerTransport } from './layer-transport.js';
import { ProtocolRefusal, protocolRefusalResponse, type RefusalListener } from './protocol-refusal.js';
import type { RequestId } from './read-leading-id.js';

/** Ids remembered at most; past it the oldest is forgotten (a request the SDK never answers cannot fill the map). */
const MAX_TRACKED = 10_000;

/**
 * A request id must not be reused while the request it named is in progress (JSON-RPC 2.0 §4; MCP specification,
 * base protocol: "the request ID MUST NOT have been previously used by the requestor within the same session").
 * A second request with an id still in progress is refused here with DUPLICATE_REQUEST_ID, never reaching the SDK
 * (which would run both and let its own text through); the first one completes as if nothing happened. An id is in
 * progress from its request until its response is sent or a `notifications/cancelled` names it.
 */
export function refuseDuplicateIds(inner: Transport, onRefused: RefusalListener = () => undefined): Transport {
  const inProgress = new Set<string>();
  return layerTransport(inner, {
    inbound: (message, reply) => {
      if (!('method' in message)) return false;
      if (!('id' in message)) {
        if (message.method === 'notifications/cancelled') {
          const requestId = (message as { params?: { requestId?: unknown } }).params?.requestId;
          if (typeof requestId === 'string' || typeof requestId === 'number') inProgress.delete(keyOf(requestId));
        }
        return false;
      }
      const key = keyOf(message.id as RequestId);
      if (inProgress.has(key)) {
        onRefused(ProtocolRefusal.DUPLICATE_REQUEST_ID);
        reply(protocolRefusalResponse(message.id as RequestId, ProtocolRefusal.DUPLICATE_REQUEST_ID));
        return true;
      }
      if (inProgress.size >= MAX_TRACKED) inProgress.delete(inProgress.values().next().value as string);
      inProgress.add(key);
      return false;
    },
    outbound: (message: JSONRPCMessage) => {
      if ('id' in message && !('method' in message)) inProgress.delete(keyOf(message.id as RequestId));
    },
  });
}

/** 7 and "7" are different ids (JSON-RPC 2.0 §4). */
function keyOf(id: RequestId): string {
  return `${typeof id}:${String(id)}`;
}
