import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from '@modelcontextprotocol/server';

const MAX_HELD = 10_000;

/**
 * What may pass before the tools are attached: the opening of either protocol era — `initialize` (2025 era) or
 * `server/discover` (2026-07-28) — and `ping`. None of them reveals the tool list.
 */
const OPENING_METHODS: ReadonlySet<string> = new Set(['initialize', 'server/discover', 'ping']);

export interface GatedTransport extends Transport {
  /**
   * Resolves once there is a reason to attach the tools now: the reply to `initialize` has been handed to the
   * wire (a 2025 client lists tools next), or a request that needs the tools is being held. Answering
   * `server/discover` is no such reason: the v2 SDK client probes on a disposable sibling process that is
   * reaped right after discovery, so that process must not load the catalogue or open the write runtime.
   */
  readonly openingAnswered: Promise<void>;
  /** True once a `server/discover` was answered (the idle fallback then waits for a request instead). */
  readonly discoveryAnswered: () => boolean;
  /** Resolves once the underlying transport closed (stdin ended or stdout broke). */
  readonly closed: Promise<void>;
  /** Lets held messages through, in arrival order, and everything after them. */
  open(): void;
}

/**
 * Lets the server answer the opening request while the READ catalogue is still loading, and holds every other
 * client message until open(): a client never sees a partial tool list, in either era. It sits under the SDK's
 * stdio entry, which sees the held messages later, in order, as if they had just arrived. The
 * tools/list_changed notifications the SDK emits while tools are being registered are dropped before open(),
 * because no client has listed the tools yet.
 */
export function gateUntilReady(inner: Transport): GatedTransport {
  let isOpen = false;
  let discovered = false;
  const initializeIds = new Set<string | number>();
  const discoverIds = new Set<string | number>();
  const held: [JSONRPCMessage, MessageExtraInfo | undefined][] = [];
  let answered!: () => void;
  const openingAnswered = new Promise<void>((resolve) => {
    answered = resolve;
  });
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });

  const outer: GatedTransport = {
    openingAnswered,
    discoveryAnswered: () => discovered,
    closed,
    start: () => inner.start(),
    close: () => inner.close(),
    send: async (message: JSONRPCMessage, options?: TransportSendOptions) => {
      if (!isOpen && 'method' in message && message.method === 'notifications/tools/list_changed') return;
      await inner.send(message, options);
      if ('id' in message && !('method' in message)) {
        const id = message.id as string | number;
        if (initializeIds.delete(id)) answered();
        if (discoverIds.delete(id)) discovered = true;
      }
    },
    setProtocolVersion: (version: string) => inner.setProtocolVersion?.(version),
    open: () => {
      if (isOpen) return;
      isOpen = true;
      for (const [message, extra] of held.splice(0)) outer.onmessage?.(message, extra);
    },
  };
  inner.onclose = () => {
    markClosed();
    outer.onclose?.();
  };
  inner.onerror = (error: Error) => outer.onerror?.(error);
  inner.onmessage = <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => {
    const method = 'method' in message ? message.method : undefined;
    if (isOpen || (method !== undefined && OPENING_METHODS.has(method))) {
      if (!isOpen && 'id' in message && method === 'initialize') initializeIds.add(message.id as string | number);
      if (!isOpen && 'id' in message && method === 'server/discover') discoverIds.add(message.id as string | number);
      outer.onmessage?.(message, extra);
      return;
    }
    if (held.length < MAX_HELD) held.push([message, extra]);
    // A request that needs the tools is waiting: attach now rather than after an idle delay. A notification
    // (the 2025 era's `notifications/initialized`) is no such reason.
    if ('id' in message) answered();
  };
  return outer;
}
