import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from '@modelcontextprotocol/server';

const MAX_HELD = 10_000;

/**
 * What may pass before the tools are attached: the opening of either protocol era — `initialize` (2025 era) or
 * `server/discover` (2026-07-28) — and `ping`. None of them reveals the tool list.
 */
const OPENING_METHODS: ReadonlySet<string> = new Set(['initialize', 'server/discover', 'ping']);
const ANSWERS_OPENING: ReadonlySet<string> = new Set(['initialize', 'server/discover']);

export interface GatedTransport extends Transport {
  /**
   * Resolves once there is a reason to attach the tools now: the reply to `initialize` or `server/discover`
   * has been handed to the wire, or a message that needs the tools is being held (a 2026-07-28 client that
   * knows the server from an earlier discovery may open with `tools/list`).
   */
  readonly openingAnswered: Promise<void>;
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
  const openingIds = new Set<string | number>();
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
    closed,
    start: () => inner.start(),
    close: () => inner.close(),
    send: async (message: JSONRPCMessage, options?: TransportSendOptions) => {
      if (!isOpen && 'method' in message && message.method === 'notifications/tools/list_changed') return;
      await inner.send(message, options);
      if ('id' in message && !('method' in message) && openingIds.delete(message.id as string | number)) answered();
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
      if (!isOpen && method !== undefined && ANSWERS_OPENING.has(method) && 'id' in message) openingIds.add(message.id as string | number);
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
