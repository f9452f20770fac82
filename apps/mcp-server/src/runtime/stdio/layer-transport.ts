import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from '@modelcontextprotocol/server';

export interface LayerHooks {
  /**
   * Sees each message from the client; returns true when this layer handled it (it is not passed on). `reply`
   * answers it on the wire directly, without passing this layer's `outbound` hook.
   */
  readonly inbound: (message: JSONRPCMessage, reply: (response: JSONRPCMessage) => void) => boolean;
  /** Sees each message the server sends, before it goes on to the wire. */
  readonly outbound?: (message: JSONRPCMessage) => void;
}

/** A transport between the wire (`inner`) and the SDK that filters what comes in and watches what goes out. */
export function layerTransport(inner: Transport, hooks: LayerHooks): Transport {
  const reply = (response: JSONRPCMessage) => {
    inner.send(response).catch(() => undefined);
  };
  const outer: Transport = {
    start: () => inner.start(),
    close: () => inner.close(),
    send: (message: JSONRPCMessage, options?: TransportSendOptions) => {
      hooks.outbound?.(message);
      return inner.send(message, options);
    },
    setProtocolVersion: (version: string) => inner.setProtocolVersion?.(version),
  };
  inner.onclose = () => outer.onclose?.();
  inner.onerror = (error: Error) => outer.onerror?.(error);
  inner.onmessage = <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => {
    if (!hooks.inbound(message, reply)) outer.onmessage?.(message, extra);
  };
  return outer;
}
