// Loaded with import() after the `initialize` reply: the READ catalogue (zod schemas, projections) and the HTTP
// stack are the bulk of startup work, and no client needs them before its first tools/list or tools/call.
import { attachReadTools } from './attach-read-tools.js';
import { buildReadClient } from './build-read-client.js';
import type { BaseServer } from './create-base-server.js';
import type { ServerConfig } from './load-config.js';

/** Builds the GET-only client and registers the READ tools; returns the function that closes the client. */
export function attachHttpReadTools(base: BaseServer, config: ServerConfig, apiKey: string): () => void {
  const handle = buildReadClient(config, apiKey);
  attachReadTools(base, handle.client);
  return () => handle.close();
}
