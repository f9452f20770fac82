import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { stdin as processStdin, stdout as processStdout } from 'node:process';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Logger } from './create-logger.js';
import { observeToolCalls } from './observe-tool-calls.js';

const DRAIN_TIMEOUT_MS = 10_000;

export interface ServeOptions {
  readonly logger: Logger;
  readonly registeredTools: ReadonlySet<string>;
  readonly profile: string;
  readonly version: string;
  /** Runs once during shutdown, after the MCP connection is closed (e.g. stop the demo simulator). */
  readonly onShutdown?: () => Promise<void>;
  readonly stdin?: NodeJS.ReadableStream & { listenerCount(e: string): number; pause(): unknown };
  readonly stdout?: NodeJS.WritableStream;
}

/**
 * Serves `server` over stdio until the client goes away or the process is told to stop: stdin EOF, SIGINT,
 * SIGTERM, or a broken stdout pipe (EPIPE). Resolves with the exit code once everything is closed.
 */
export async function serveStdio(server: McpServer, options: ServeOptions): Promise<number> {
  const { logger } = options;
  // stdout is handed to the SDK transport (the only writer) and watched for EPIPE; nothing else touches it.
  const stdin = options.stdin ?? processStdin;
  const stdout = options.stdout ?? processStdout;
  const transport = observeToolCalls(new StdioServerTransport(stdin as typeof processStdin, stdout as typeof processStdout), logger, options.registeredTools);

  let resolveStop!: (reason: string) => void;
  const stopped = new Promise<string>((resolve) => {
    resolveStop = resolve;
  });
  const onSignal = (signal: NodeJS.Signals) => resolveStop(signal);
  const onEnd = () => resolveStop('stdin_eof');
  const onStdoutError = () => resolveStop('stdout_error');
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  stdin.once('end', onEnd);
  stdin.once('close', onEnd);
  stdout.on('error', onStdoutError);
  transport.onclose = () => resolveStop('transport_closed');

  await server.connect(transport);
  logger.log('info', 'server_started', { profile: options.profile, toolCount: options.registeredTools.size, version: options.version });

  const reason = await stopped;
  logger.log('info', 'server_stopping', reason.startsWith('SIG') ? { signal: reason } : {});
  // EOF on stdin means the client sent its last request, not that it stopped reading: let calls in flight
  // answer (bounded). A signal or a broken pipe stops at once.
  if (reason === 'stdin_eof') await transport.drain(DRAIN_TIMEOUT_MS);
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  stdin.off('end', onEnd);
  stdin.off('close', onEnd);
  try {
    await server.close();
  } catch {
    // Closing a broken pipe can fail; the process is leaving anyway.
  }
  if (options.onShutdown !== undefined) await options.onShutdown();
  logger.log('info', 'server_stopped');
  stdout.off('error', onStdoutError);
  // A late EPIPE after close must not become an uncaught exception.
  stdout.on('error', () => undefined);
  return 0;
}
