import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';

const MAX_HELD = 10_000;

export interface GatedTransport extends Transport {
  /** Resolves once the reply to `initialize` has been handed to the wire. */
  readonly initializeAnswered: Promise<void>;
  /** Lets held messages through, in arrival order, and everything after them. */
  open(): void;
}

/**
 * Lets the server answer `initialize` (and `ping`) while the READ catalogue is still loading, and holds every
 * other client message until open(): a client never sees a partial tool list. The tools/list_changed
 * notifications the SDK emits while tools are being registered are dropped before open(), because no client
 * has listed the tools yet.
 */
export function gateUntilReady(inner: Transport): GatedTransport {
  let isOpen = false;
  let initializeId: string | number | undefined;
  const held: [JSONRPCMessage, MessageExtraInfo | undefined][] = [];
  let answered!: () => void;
  const initializeAnswered = new Promise<void>((resolve) => {
    answered = resolve;
  });

  const outer: GatedTransport = {
    initializeAnswered,
    start: () => inner.start(),
    close: () => inner.close(),
    send: async (message: JSONRPCMessage, options?: TransportSendOptions) => {
      if (!isOpen && 'method' in message && message.method === 'notifications/tools/list_changed') return;
      await inner.send(message, options);
      if (initializeId !== undefined && 'id' in message && message.id === initializeId && !('method' in message)) answered();
    },
    open: () => {
      if (isOpen) return;
      isOpen = true;
      for (const [message, extra] of held.splice(0)) outer.onmessage?.(message, extra);
    },
  };
  inner.onclose = () => outer.onclose?.();
  inner.onerror = (error: Error) => outer.onerror?.(error);
  inner.onmessage = <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => {
    const method = 'method' in message ? message.method : undefined;
    if (isOpen || method === 'initialize' || method === 'ping') {
      if (method === 'initialize' && 'id' in message) initializeId = message.id;
      outer.onmessage?.(message, extra);
      return;
    }
    if (held.length < MAX_HELD) held.push([message, extra]);
  };
  return outer;
}
