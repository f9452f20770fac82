import { setImmediate as nextTurn } from 'node:timers/promises';
import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from '@modelcontextprotocol/server';
import { ProtocolRefusal, protocolRefusalResponse } from '../stdio/protocol-refusal.js';
import type { RequestId } from '../stdio/read-leading-id.js';

/** Messages held while the tools are being attached; a client opening normally sends two or three. */
export const MAX_HELD_MESSAGES = 1_000;
/** Held messages let through per event-loop turn once open, so their replies are written before the next ones. */
const RELEASED_PER_TURN = 16;

export interface GateOptions {
  readonly maxHeld?: number;
  /** Awaited between turns while held messages are let through (the wire's "stdout has room"). */
  readonly pace?: () => Promise<void>;
  /** Called once, at the first message past the bound (one log line, however many follow). */
  readonly onOverflow?: () => void;
}

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
  /** Resolves once open() let every held message through (they have all reached the server above). */
  readonly released: Promise<void>;
  /**
   * Starts the underlying transport before anything is connected on top (the MCP SDK is loaded later): until
   * start() every message is held, the opening ones too; start() then lets the held opening ones through, in order.
   */
  listen(): Promise<void>;
  /**
   * Lets held messages through, in arrival order and paced by `pace`, and everything after them (messages arriving
   * meanwhile queue behind the held ones).
   */
  open(): void;
}

/**
 * Lets the server answer the opening request while the READ catalogue is still loading, and holds every other
 * client message until open(): a client never sees a partial tool list, in either era. It sits under the SDK's
 * stdio entry, which sees the held messages later, in order, as if they had just arrived. The
 * tools/list_changed notifications the SDK emits while tools are being registered are dropped before open(),
 * because no client has listed the tools yet. The held queue is bounded: past `maxHeld` a request is answered at
 * once with SERVER_STARTING (a JSON-RPC error) and a notification is dropped, so every request gets an answer.
 */
export function gateUntilReady(inner: Transport, options: GateOptions = {}): GatedTransport {
  const maxHeld = options.maxHeld ?? MAX_HELD_MESSAGES;
  if (!Number.isSafeInteger(maxHeld) || maxHeld < 0) throw new RangeError('gateUntilReady: "maxHeld" must be a non-negative integer');
  const pace = options.pace ?? (() => Promise.resolve());
  let isOpen = false;
  let releasing = false;
  /** False between listen() and start(): nothing above listens yet, so even the opening messages are held. */
  let connected = true;
  let listening = false;
  let overflowed = false;
  let discovered = false;
  const initializeIds = new Set<string | number>();
  const discoverIds = new Set<string | number>();
  const held: [JSONRPCMessage, MessageExtraInfo | undefined][] = [];
  let answered!: () => void;
  const openingAnswered = new Promise<void>((resolve) => {
    answered = resolve;
  });
  let markReleased!: () => void;
  const released = new Promise<void>((resolve) => {
    markReleased = resolve;
  });
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });

  const outer: GatedTransport = {
    openingAnswered,
    discoveryAnswered: () => discovered,
    closed,
    released,
    start: async () => {
      if (!listening) return inner.start();
      connected = true;
      // The opening messages held while nothing listened pass now, in order; the others stay held until open().
      const waiting = held.splice(0, held.length);
      for (const [message, extra] of waiting) {
        if (isOpeningMethod(message)) deliverOpening(message, extra);
        else held.push([message, extra]);
      }
    },
    listen: async () => {
      if (listening) return;
      listening = true;
      connected = false;
      await inner.start();
    },
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
      if (isOpen || releasing) return;
      releasing = true;
      void release();
    },
  };
  const release = async () => {
    let count = 0;
    while (held.length > 0) {
      if (count >= RELEASED_PER_TURN) {
        count = 0;
        await nextTurn();
        await pace();
        continue;
      }
      const [message, extra] = held.shift() as [JSONRPCMessage, MessageExtraInfo | undefined];
      outer.onmessage?.(message, extra);
      count += 1;
    }
    isOpen = true;
    markReleased();
  };
  inner.onclose = () => {
    markClosed();
    outer.onclose?.();
  };
  inner.onerror = (error: Error) => outer.onerror?.(error);
  const deliverOpening = (message: JSONRPCMessage, extra: MessageExtraInfo | undefined) => {
    const method = 'method' in message ? message.method : undefined;
    if (!isOpen && 'id' in message && method === 'initialize') initializeIds.add(message.id as string | number);
    if (!isOpen && 'id' in message && method === 'server/discover') discoverIds.add(message.id as string | number);
    outer.onmessage?.(message, extra);
  };
  inner.onmessage = <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => {
    const method = 'method' in message ? message.method : undefined;
    if (connected && (isOpen || isOpeningMethod(message))) {
      deliverOpening(message, extra);
      return;
    }
    if (held.length < maxHeld) held.push([message, extra]);
    else {
      if (!overflowed) options.onOverflow?.();
      overflowed = true;
      if ('id' in message && method !== undefined)
        inner.send(protocolRefusalResponse(message.id as RequestId, ProtocolRefusal.SERVER_STARTING)).catch(() => undefined);
      return;
    }
    // A request that needs the tools is waiting: attach now rather than after an idle delay. A notification
    // (the 2025 era's `notifications/initialized`) is no such reason, nor an opening held until start().
    if ('id' in message && !isOpeningMethod(message)) answered();
  };
  return outer;
}

function isOpeningMethod(message: JSONRPCMessage): boolean {
  return 'method' in message && OPENING_METHODS.has(message.method);
}
