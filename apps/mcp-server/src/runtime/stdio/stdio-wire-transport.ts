import { setImmediate as nextTurn } from 'node:timers/promises';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { decodeLine } from './decode-line.js';
import { messageLinePieces } from './message-line-pieces.js';
import { MAX_FRAME_BYTES, ProtocolRefusal, protocolRefusalResponse } from './protocol-refusal.js';
import { readLeadingId, type RequestId } from './read-leading-id.js';
import { LineSplitter } from './split-lines.js';

/** Reading pauses while more than this many bytes of replies wait to be taken by the client. */
export const STDOUT_HIGH_WATER_BYTES = 1024 * 1024;
/** Messages handed on per event-loop turn, so their replies are written (and counted) before more are read. */
const MESSAGES_PER_TURN = 16;

export interface StdioWireOptions {
  readonly maxFrameBytes?: number;
  readonly highWaterBytes?: number;
  /** Told about every line refused here (for one log line each; names and codes only). */
  readonly onRefused?: (refusal: ProtocolRefusal, id: RequestId | null) => void;
}

/** The server's stdio transport (below the SDK's stdio entry, which only sees whole, valid messages). */
export interface StdioWireTransport extends Transport {
  /** Resolves once stdout has room (at once when it has); lets other layers pace what they release. */
  whenWritable(): Promise<void>;
}

/**
 * The MCP stdio binding done strictly (MCP specification, transports: newline-delimited JSON-RPC on stdin and
 * stdout): frames are cut by LineSplitter with a 10 MiB limit (a longer line is refused and discarded, the
 * connection stays up), every undecodable line is answered (Parse error / Invalid Request, JSON-RPC 2.0 §5.1), and
 * reading follows the client: while replies pile up unread on stdout, no more input is read or handed on, so a
 * client that writes without reading cannot grow the server. It never closes on stdin EOF: the caller decides what
 * EOF means (serve-stdio.ts lets calls in flight answer first).
 */
export function createStdioWireTransport(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  options: StdioWireOptions = {},
): StdioWireTransport {
  const highWater = options.highWaterBytes ?? STDOUT_HIGH_WATER_BYTES;
  if (!Number.isSafeInteger(highWater) || highWater < 1)
    throw new RangeError('createStdioWireTransport: "highWaterBytes" must be a positive integer');
  const splitter = new LineSplitter(options.maxFrameBytes ?? MAX_FRAME_BYTES);
  const out = output as NodeJS.WritableStream & { readonly writableLength?: number };
  const queue: Buffer[] = [];
  let drainWaiters: (() => void)[] = [];
  let started = false;
  let closed = false;
  let pumping = false;

  const backedUp = () => (out.writableLength ?? 0) > highWater;
  const releaseWaiters = () => {
    const waiters = drainWaiters;
    drainWaiters = [];
    for (const resolve of waiters) resolve();
  };
  const whenWritable = (): Promise<void> =>
    closed || !backedUp() ? Promise.resolve() : new Promise((resolve) => drainWaiters.push(resolve));

  const refuse = (refusal: ProtocolRefusal, id: RequestId | null) => {
    options.onRefused?.(refusal, id);
    void transport.send(protocolRefusalResponse(id, refusal)).catch(() => undefined);
  };

  const hand = (bytes: Buffer) => {
    const decoded = decodeLine(bytes);
    if (decoded.kind === 'refused') refuse(decoded.refusal, decoded.id);
    if (decoded.kind !== 'message') return;
    try {
      transport.onmessage?.(decoded.message);
    } catch (error) {
      transport.onerror?.(error instanceof Error ? error : new Error('message handler failed'));
    }
  };

  // Hands queued lines on a few per turn, waiting for stdout to drain when it is backed up; input stays paused
  // while anything is queued, so at most one chunk of input is held here.
  const pump = async () => {
    if (pumping) return;
    pumping = true;
    try {
      let handed = 0;
      while (queue.length > 0 && !closed) {
        if (backedUp()) await whenWritable();
        else if (handed >= MESSAGES_PER_TURN) {
          handed = 0;
          await nextTurn();
        } else {
          hand(queue.shift() as Buffer);
          handed += 1;
        }
      }
    } finally {
      pumping = false;
    }
    if (!closed) input.resume();
  };

  const onData = (chunk: Buffer | string) => {
    for (const item of splitter.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk)) {
      if (item.kind === 'line') queue.push(item.bytes);
      else refuse(ProtocolRefusal.FRAME_TOO_LARGE, readLeadingId(item.head.toString('utf8')));
    }
    if (queue.length === 0) return;
    input.pause();
    void pump();
  };
  const onInputError = (error: Error) => transport.onerror?.(error);
  const onOutputError = (error: Error) => {
    if (closed) return;
    transport.onerror?.(error);
    void transport.close();
  };

  const transport: StdioWireTransport = {
    whenWritable,
    start: async () => {
      if (started) throw new Error('createStdioWireTransport: already started');
      started = true;
      input.on('data', onData);
      input.on('error', onInputError);
      output.on('error', onOutputError);
      output.on('drain', releaseWaiters);
    },
    close: async () => {
      if (closed) return;
      closed = true;
      input.off('data', onData);
      input.off('error', onInputError);
      output.off('drain', releaseWaiters);
      input.pause();
      queue.length = 0;
      releaseWaiters();
      transport.onclose?.();
    },
    send: (message: JSONRPCMessage) => {
      if (closed) return Promise.reject(new Error('stdio transport is closed'));
      // A whole line per send, its pieces written back to back (corked into one write where the stream can):
      // a reply is never interleaved with another.
      const pieces = messageLinePieces(message);
      if (pieces.length === 1) output.write(pieces[0] as string);
      else {
        const corkable = output as NodeJS.WritableStream & { cork?: () => void; uncork?: () => void };
        corkable.cork?.();
        for (const piece of pieces) output.write(piece);
        corkable.uncork?.();
      }
      return Promise.resolve();
    },
  };
  return transport;
}
