import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { layerTransport } from './layer-transport.js';
import { PROTOCOL_VERSION_META_KEY } from '../server/mcp-meta-keys.js';
import { ProtocolRefusal, protocolRefusalResponse, type RefusalListener } from './protocol-refusal.js';
import type { RequestId } from './read-leading-id.js';

/** Claimed requests awaiting their first answer; past this many the era is decided by the SDK alone. */
const MAX_CLAIMED = 10_000;

/**
 * Keeps the lifecycle of both protocol eras. In the 2025 era `initialize` MUST be the first interaction and a client
 * SHOULD NOT send requests other than `ping` before it (MCP specification 2025-06-18, lifecycle): such a request is
 * refused with a JSON-RPC error (NOT_INITIALIZED) instead of being served, and a notification is dropped. A `ping`
 * is answered here, so it does not commit the connection to an era. In the
 * 2026-07-28 era there is no handshake: every request carries its own `_meta` envelope, which the SDK checks, so a
 * request that claims an envelope always passes; once one such request succeeded the connection is in that era and
 * everything passes (the SDK answers a later request without an envelope itself).
 */
export function refuseBeforeInitialize(inner: Transport, onRefused: RefusalListener = () => undefined): Transport {
  let open = false;
  const claimed = new Set<RequestId>();
  return layerTransport(inner, {
    inbound: (message, reply) => {
      if (open || !('method' in message)) return false;
      const isRequest = 'id' in message;
      if (isRequest && message.method === 'initialize') {
        open = true;
        return false;
      }
      if (hasEnvelopeClaim(message)) {
        if (isRequest && claimed.size < MAX_CLAIMED) claimed.add(message.id as RequestId);
        return false;
      }
      if (isRequest && message.method === 'ping') {
        // Answered here: a ping without an envelope must not make the SDK pick the 2025 era for the connection.
        reply({ jsonrpc: '2.0', id: message.id as RequestId, result: {} } as JSONRPCMessage);
        return true;
      }
      onRefused(ProtocolRefusal.NOT_INITIALIZED);
      if (isRequest) reply(protocolRefusalResponse(message.id as RequestId, ProtocolRefusal.NOT_INITIALIZED));
      return true;
    },
    outbound: (message: JSONRPCMessage) => {
      if (open || !('id' in message) || 'method' in message) return;
      if (claimed.delete(message.id as RequestId) && 'result' in message) {
        open = true;
        claimed.clear();
      }
    },
  });
}

function hasEnvelopeClaim(message: JSONRPCMessage): boolean {
  const meta = (message as { params?: { _meta?: unknown } }).params?._meta;
  return typeof meta === 'object' && meta !== null && PROTOCOL_VERSION_META_KEY in meta;
}
