import { randomUUID } from 'node:crypto';
import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from '@modelcontextprotocol/server';
import type { EarlyOpening, Era } from './early-opening.js';
import type { RequestId } from '../stdio/read-leading-id.js';
import { isPlainToolsList, plainDiscoverRevision, plainInitializeRevision } from './recognize-opening.js';

export interface EarlyTransport extends Transport {
  /**
   * Resolves once the MCP SDK is needed: an `initialize` was answered here (a 2025 client lists and calls tools
   * next), a tools/list was, or a request was passed on. A `server/discover` answered here is no such reason: the v2
   * SDK client probes on a disposable sibling process, which must stay light.
   */
  readonly needed: Promise<void>;
  /** True once a `server/discover` was answered here. */
  readonly discoveryAnswered: () => boolean;
  /** Stops answering early: from now on every message passes on to the SDK. */
  handOver(): void;
}

/**
 * Answers the opening request (`initialize` or `server/discover`) and then tools/list with the SDK's own replies,
 * precomputed (early-opening.ts), before the SDK, zod and the READ catalogue are loaded (docs/DESIGN.md §8). The
 * opening request is then passed on under a private id, so the SDK server (loaded later, under the startup gate)
 * negotiates the same era and revision; its duplicate reply is dropped here. Only plain requests are answered
 * (recognize-opening.ts), and only until the first request this layer does not answer: from there on, everything
 * passes in order, as if this layer were not there. It sits above the framing and lifecycle layers, so an early
 * reply is seen by them like any other.
 */
export function answerOpeningEarly(inner: Transport, opening: EarlyOpening | null): EarlyTransport {
  let era: Era | null = null;
  let revision = '';
  let answering = opening !== null;
  let discovered = false;
  let replayId: RequestId | null = null;
  let markNeeded!: () => void;
  const needed = new Promise<void>((resolve) => {
    markNeeded = resolve;
  });

  const reply = (id: RequestId, result: Readonly<Record<string, unknown>>) => {
    // The member order the SDK's own replies have.
    inner.send({ result, jsonrpc: '2.0', id } as unknown as JSONRPCMessage).catch(() => undefined);
  };
  /** Answers `message` when it is a plain request this layer can answer now; returns the message to pass on, or null. */
  const answer = (message: JSONRPCMessage): JSONRPCMessage | null | undefined => {
    if (opening === null || !('id' in message) || !('method' in message)) return undefined;
    const id = message.id as RequestId;
    if (era === null) {
      const asked = plainInitializeRevision(message);
      const result = asked === null ? undefined : opening.initializeResult(asked);
      if (asked !== null && result !== undefined) {
        era = 'legacy';
        revision = asked;
        return open(message, id, result);
      }
      const claimed = plainDiscoverRevision(message);
      const discovery = claimed === null ? undefined : opening.discoverResult(claimed);
      if (claimed !== null && discovery !== undefined) {
        era = 'modern';
        revision = claimed;
        discovered = true;
        return open(message, id, discovery);
      }
      return undefined;
    }
    if (!isPlainToolsList(message, era, revision)) return undefined;
    const listed = opening.toolsListResult(era, revision);
    if (listed === undefined) return undefined;
    // Under a profile that grants the write, the answer waits for the write gates (which the load decides first).
    if (listed instanceof Promise)
      listed.then(
        (result) => reply(id, result),
        () => undefined,
      );
    else reply(id, listed);
    markNeeded();
    return null;
  };
  const open = (message: JSONRPCMessage, id: RequestId, result: Readonly<Record<string, unknown>>): JSONRPCMessage => {
    reply(id, result);
    if (era === 'legacy') markNeeded();
    replayId = `pfsense-mcp-opening-${randomUUID()}`;
    return { ...message, id: replayId } as JSONRPCMessage;
  };

  const outer: EarlyTransport = {
    needed,
    discoveryAnswered: () => discovered,
    handOver: () => {
      answering = false;
    },
    start: () => inner.start(),
    close: () => inner.close(),
    send: async (message: JSONRPCMessage, options?: TransportSendOptions) => {
      // The SDK's own reply to the replayed opening: the client had its answer already.
      if (replayId !== null && 'id' in message && message.id === replayId && !('method' in message)) {
        replayId = null;
        return;
      }
      await inner.send(message, options);
    },
    setProtocolVersion: (version: string) => inner.setProtocolVersion?.(version),
  };
  inner.onclose = () => outer.onclose?.();
  inner.onerror = (error: Error) => outer.onerror?.(error);
  inner.onmessage = <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => {
    if (answering) {
      const passOn = answer(message);
      if (passOn === null) return;
      if (passOn !== undefined) {
        outer.onmessage?.(passOn, extra);
        return;
      }
      // The first request not answered here ends early answering; notifications (`notifications/initialized`) do not.
      if ('id' in message && 'method' in message) {
        answering = false;
        markNeeded();
      }
    } else if ('id' in message && 'method' in message) markNeeded();
    outer.onmessage?.(message, extra);
  };
  return outer;
}
