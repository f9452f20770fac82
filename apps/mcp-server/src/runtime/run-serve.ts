import { createLogger } from './create-logger.js';
import { createServerFactory } from './create-server-factory.js';
import type { ServerConfig } from './load-config.js';
import type { WriteRuntime } from './open-write-runtime.js';
import { precheckCaFile } from './precheck-ca-file.js';
import { readApiKey } from './read-api-key.js';
import { serveStdio } from './serve-stdio.js';
import { SERVER_VERSION } from './server-identity.js';

/**
 * Serves MCP over stdio with a validated configuration, in both protocol eras. Everything that can fail on
 * configuration (key file, CA file, profile, allow-list) is checked before serving; the READ catalogue and HTTP
 * stack are loaded right after the opening reply (`initialize` or `server/discover`). `onShutdown` runs after
 * the connection closes.
 */
export async function runServe(config: ServerConfig, onShutdown?: () => Promise<void>): Promise<number> {
  const logger = createLogger(config.logLevel);
  const apiKey = readApiKey(config.apiKeyFile);
  if (config.caFile !== null) precheckCaFile(config.caFile);
  const factory = createServerFactory(config.profile, config.allowedTools, config.toolsets);
  let closeClient = (): void => undefined;
  let writeRuntime: WriteRuntime | null = null;
  return serveStdio(factory, {
    logger,
    profile: config.profile,
    version: SERVER_VERSION,
    attach: async () => {
      const { attachHttpReadTools } = await import('./attach-http-read-tools.js');
      closeClient = attachHttpReadTools(factory, config, apiKey);
      const { attachWriteTool } = await import('./attach-write-tool.js');
      writeRuntime = (await attachWriteTool(factory, config, apiKey, logger)).runtime;
    },
    // A write in flight finishes before the connection closes (its answer can still reach the client), bounded.
    beforeClose: async () => (writeRuntime === null ? false : writeRuntime.drain()),
    onShutdown: async () => {
      if (writeRuntime !== null) {
        writeRuntime.close();
        logger.log('info', 'write_runtime_closed');
      }
      closeClient();
      if (onShutdown !== undefined) await onShutdown();
    },
  });
}
