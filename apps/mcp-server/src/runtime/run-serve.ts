import type { ServerConfig } from './load-config.js';
import { buildReadClient } from './build-read-client.js';
import { createLogger } from './create-logger.js';
import { createMcpServer } from './create-mcp-server.js';
import { readApiKey } from './read-api-key.js';
import { serveStdio } from './serve-stdio.js';
import { SERVER_VERSION } from './server-identity.js';

/** Serves MCP over stdio with a validated configuration. `onShutdown` runs after the connection closes. */
export async function runServe(config: ServerConfig, onShutdown?: () => Promise<void>): Promise<number> {
  const logger = createLogger(config.logLevel);
  const handle = buildReadClient(config, readApiKey(config.apiKeyFile));
  const { server, selection } = createMcpServer({ profile: config.profile, allowedTools: config.allowedTools, client: handle.client });
  return serveStdio(server, {
    logger,
    registeredTools: selection.names,
    profile: config.profile,
    version: SERVER_VERSION,
    onShutdown: async () => {
      handle.close();
      if (onShutdown !== undefined) await onShutdown();
    },
  });
}
