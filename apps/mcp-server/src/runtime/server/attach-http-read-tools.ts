// Loaded with import() after the opening reply (`initialize` or `server/discover`): the READ catalogue (zod
// schemas, projections) and the HTTP stack are the bulk of startup work, and no client needs them before its
// first tools/list or tools/call.
import { attachReadTools } from './attach-read-tools.js';
import { buildReadClient } from './build-read-client.js';
import type { ServerFactory } from './create-server-factory.js';
import type { ServerConfig } from '../config/load-config.js';

/** Builds the GET-only client and registers the READ tools; returns the function that closes the client. */
export function attachHttpReadTools(factory: ServerFactory, config: ServerConfig, apiKey: string): () => void {
  const handle = buildReadClient(config, apiKey);
  attachReadTools(factory, handle.client);
  return () => handle.close();
}
