import { createLogger } from './create-logger.js';
import type { ServerFactory } from './create-server-factory.js';
import { earlyOpening } from './early-opening.js';
import type { ServerConfig } from './load-config.js';
import type { WriteRuntime } from './open-write-runtime.js';
import { precheckCaFile } from './precheck-ca-file.js';
import { readApiKey } from './read-api-key.js';
import { serveStdio } from './serve-stdio.js';
import { SERVER_VERSION } from './server-identity.js';

/**
 * Serves MCP over stdio with a validated configuration, in both protocol eras. Everything that can fail on
 * configuration (key file, CA file, profile, allow-list) is checked before serving. The opening reply and the first
 * tools/list come from what the SDK server answers for this configuration, precomputed (early-opening.ts); the MCP
 * SDK, then the READ catalogue, the HTTP stack and the write runtime, are loaded right after (docs/DESIGN.md §8).
 * `onShutdown` runs after the connection closes.
 */
export async function runServe(config: ServerConfig, onShutdown?: () => Promise<void>): Promise<number> {
  const logger = createLogger(config.logLevel);
  const apiKey = readApiKey(config.apiKeyFile);
  if (config.caFile !== null) precheckCaFile(config.caFile);
  let factory: ServerFactory | null = null;
  let closeClient = (): void => undefined;
  let writeRuntime: WriteRuntime | null = null;
  return serveStdio({
    logger,
    profile: config.profile,
    version: SERVER_VERSION,
    early: earlyOpening(config.profile, config.allowedTools, config.toolsets),
    load: async () => {
      const { createSdkSession } = await import('./sdk-session.js');
      const created = createSdkSession(config.profile, config.allowedTools, config.toolsets);
      factory = created.factory;
      return created.session;
    },
    attach: async () => {
      if (factory === null) throw new Error('runServe: attach before load');
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
