// eslint-disable-next-line no-restricted-imports -- the stdio wire transport is the one writer of stdout while serving (and EPIPE is watched here).
import { stdin as processStdin, stdout as processStdout } from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Transport } from '@modelcontextprotocol/server';
import { answerOpeningEarly } from '../opening/answer-opening-early.js';
import { ConfigError } from '../config/config-error.js';
import type { Logger } from '../startup/create-logger.js';
import type { EarlyOpening } from '../opening/early-opening.js';
import { gateUntilReady } from '../opening/gate-until-ready.js';
import type { ObservedTransport } from '../server/observe-tool-calls.js';
import type { ProtocolRefusal } from './protocol-refusal.js';
import { refuseBeforeInitialize } from './refuse-before-initialize.js';
import { refuseDuplicateIds } from './refuse-duplicate-ids.js';
import { createStdioWireTransport } from './stdio-wire-transport.js';
import { writeCliOutput } from '../startup/write-cli-output.js';

const DRAIN_TIMEOUT_MS = 10_000;
/** After a write in flight finished during shutdown, how long its answer may take to be sent. */
const ANSWER_GRACE_MS = 1_000;
/** Start attaching tools this long after connecting even if no opening request arrived yet. */
const ATTACH_IDLE_MS = 100;

/** The MCP SDK side of a connection, loaded when the session needs it (sdk-session.ts). */
export interface SdkSession {
  /** Tool names registered so far (what attach adds included): tool calls are logged against it. */
  readonly names: ReadonlySet<string>;
  /** Puts the observer on `transport` and serves it with the SDK's stdio entry, which picks the era per connection. */
  connect(transport: Transport, logger: Logger): { readonly observed: ObservedTransport; close(): Promise<void> };
}

export interface ServeOptions {
  readonly logger: Logger;
  readonly profile: string;
  readonly version: string;
  /** Loads the MCP SDK and the server factory; runs once, when the first reply that needs the SDK is due. */
  readonly load: () => Promise<SdkSession>;
  /** The replies that can be given before the SDK is loaded (early-opening.ts); null leaves every reply to the SDK. */
  readonly early?: EarlyOpening | null;
  /** Registers the remaining tools; client messages other than the opening ones wait until it resolves. */
  readonly attach?: () => Promise<void>;
  /**
   * Runs once during shutdown, before the MCP connection is closed, whatever stopped it (e.g. let a write
   * finish). Resolves true when it waited for work whose answer should still go out.
   */
  readonly beforeClose?: () => Promise<boolean>;
  /** Runs once during shutdown, after the MCP connection is closed (e.g. stop the demo simulator). */
  readonly onShutdown?: () => Promise<void>;
  readonly stdin?: NodeJS.ReadableStream;
  readonly stdout?: NodeJS.WritableStream;
}

/**
 * Serves MCP over stdio through the SDK's stdio entry, which answers both protocol eras on one connection: a
 * 2026-07-28 client (`server/discover`, per-request `_meta`) and a 2025-era client (`initialize`). The opening
 * reply and the first tools/list are given before the SDK is loaded when `early` can (answer-opening-early.ts);
 * the SDK, then the tools, are loaded right after. Runs until the client goes away or the process is told to
 * stop: stdin EOF, SIGINT, SIGTERM, or a broken stdout pipe (EPIPE). Resolves with the exit code once everything
 * is closed.
 */
export async function serveStdio(options: ServeOptions): Promise<number> {
  const { logger } = options;
  const stdin = options.stdin ?? processStdin;
  const stdout = options.stdout ?? processStdout;
  // From the wire up: framing (frame limit, parse errors, backpressure), the lifecycle (nothing but ping before
  // initialize in the 2025 era), duplicate ids, the early replies, the startup gate, then (once the SDK is loaded)
  // the observer — under the gate, a call held during startup is seen (named, timed, cancelled) once the tools it
  // names are registered. The wire never closes at stdin EOF: EOF is handled here, after the calls in flight
  // answered (bounded).
  const refused = (refusal: ProtocolRefusal) => logger.log('warn', 'message_refused', { code: refusal });
  const wire = createStdioWireTransport(stdin, stdout, { onRefused: refused });
  const early = answerOpeningEarly(refuseDuplicateIds(refuseBeforeInitialize(wire, refused), refused), options.early ?? null);
  const transport = gateUntilReady(early, {
    pace: () => wire.whenWritable(),
    onOverflow: () => logger.log('warn', 'startup_queue_full', { code: 'SERVER_STARTING' }),
  });

  let resolveStop!: (reason: string) => void;
  // Set when the server must stop at once (a signal, a broken pipe, a failed start): the start in progress stops
  // too. stdin EOF is no such reason: the calls already sent still answer, so the start completes first.
  let abandoned = false;
  const stopped = new Promise<string>((resolve) => {
    resolveStop = (reason) => {
      if (reason !== 'stdin_eof') abandoned = true;
      resolve(reason);
    };
  });
  const onSignal = (signal: NodeJS.Signals) => resolveStop(signal);
  const onEnd = () => resolveStop('stdin_eof');
  const onStdoutError = () => resolveStop('stdout_error');
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  stdin.once('end', onEnd);
  stdin.once('close', onEnd);
  stdout.on('error', onStdoutError);
  void transport.closed.then(() => resolveStop('transport_closed'));
  await transport.listen();

  let exitCode = 0;
  let connection: { readonly observed: ObservedTransport; close(): Promise<void> } | null = null;
  let idle: NodeJS.Timeout | undefined;
  // Load when a reply needs the SDK; the idle fallback covers a client that says nothing yet. After a discovery it
  // waits for a request instead (a discovery-only process is a probe about to be reaped).
  const idleFallback = new Promise<void>(
    (resolve) =>
      (idle = setTimeout(() => (early.discoveryAnswered() || transport.discoveryAnswered() ? undefined : resolve()), ATTACH_IDLE_MS)),
  );
  let loading = false;
  const startup = Promise.race([early.needed, transport.openingAnswered, idleFallback])
    .then(async () => {
      clearTimeout(idle);
      if (abandoned) return;
      loading = true;
      const session = await options.load();
      if (abandoned) return;
      // The opening held by the gate (the early layer's replay included) reaches the SDK now, in order.
      connection = session.connect(transport, logger);
      if (options.attach !== undefined) await options.attach();
      if (abandoned) return;
      early.handOver();
      transport.open();
      logger.log('info', 'server_started', { profile: options.profile, toolCount: session.names.size, version: options.version });
      await transport.released;
    })
    .catch((error: unknown) => {
      // Fail closed: a server whose tools could not be built stops instead of serving a partial surface.
      const code = error instanceof ConfigError ? error.code : 'ATTACH_FAILED';
      writeCliOutput(`pfsense-mcp: configuration error: ${error instanceof ConfigError ? error.message : 'the tools could not be set up'}`);
      logger.log('error', 'startup_failed', { code });
      exitCode = 1;
      resolveStop('attach_failed');
    });

  const reason = await stopped;
  logger.log('info', 'server_stopping', reason.startsWith('SIG') ? { signal: reason } : {});
  // EOF on stdin means the client sent its last request, not that it stopped reading: let calls in flight
  // answer (bounded). A signal or a broken pipe stops reads at once; a write in flight still finishes
  // (beforeClose, bounded by the write transport's response timeout plus a margin).
  clearTimeout(idle);
  // The requests a client sent before its EOF are answered: a start under way completes first (bounded), then the
  // calls in flight. A client that sent no request (a discovery probe) has nothing started.
  if (reason === 'stdin_eof' && loading) await Promise.race([startup, delay(DRAIN_TIMEOUT_MS)]);
  const open = connection as { readonly observed: ObservedTransport; close(): Promise<void> } | null;
  if (reason === 'stdin_eof' && open !== null) await open.observed.drain(DRAIN_TIMEOUT_MS);
  // The finished write's answer is a few ticks behind its promise: give it a moment to reach stdout.
  if (options.beforeClose !== undefined && (await options.beforeClose()) && open !== null) await open.observed.drain(ANSWER_GRACE_MS);
  // Every call the client sent gets one answer before exit: those still running after the bounded drain get a
  // stable tool error (detail SERVER_STOPPING) instead of silence.
  if (open !== null) await open.observed.answerOutstanding();
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  stdin.off('end', onEnd);
  stdin.off('close', onEnd);
  stdin.pause();
  try {
    // Without the SDK (a discovery probe, or a client gone before it loaded) the wire is closed directly.
    await (open === null ? transport.close() : open.close());
  } catch {
    // Closing a broken pipe can fail; the process is leaving anyway.
  }
  if (options.onShutdown !== undefined) await options.onShutdown();
  logger.log('info', 'server_stopped');
  stdout.off('error', onStdoutError);
  // A late EPIPE after close must not become an uncaught exception.
  stdout.on('error', () => undefined);
  return exitCode;
}

/** Resolves after `ms`, without keeping the process alive. */
function delay(ms: number): Promise<void> {
  return sleep(ms, undefined, { ref: false });
}
