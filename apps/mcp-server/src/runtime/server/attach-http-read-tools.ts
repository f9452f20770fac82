// Loaded with import() after the opening reply (`initialize` or `server/discover`): the READ catalogue (zod
// schemas, projections) and the HTTP stack are the bulk of startup work, and no client needs them before its
// first tools/list or tools/call.
import type { RestApiClient } from '@pfsense-mcp/pfsense-read';
import { attachReadTools } from './attach-read-tools.js';
import { buildReadClient, type ReadClientHandle } from './build-read-client.js';
import type { ServerFactory } from './create-server-factory.js';
import { appliancesOf, usesInventory } from '../config/appliances-of.js';
import type { ServerConfig } from '../config/load-config.js';

/**
 * Builds one GET-only client per appliance — each its own transport: connection pool, in-flight limit, timeouts and
 * response cap, so one slow or hostile appliance cannot stall reads of another — and registers the READ tools;
 * returns the function that closes every client. `keys`: each appliance's READ key by name.
 */
export function attachHttpReadTools(factory: ServerFactory, config: ServerConfig, keys: ReadonlyMap<string, string>): () => void {
  const handles: ReadClientHandle[] = [];
  const clients = new Map<string, RestApiClient>();
  try {
    for (const appliance of appliancesOf(config)) {
      const key = keys.get(appliance.name);
      if (key === undefined) throw new TypeError(`attachHttpReadTools: no key for an appliance`);
      const limits = appliance.responseTimeoutMs == null ? {} : { responseTimeoutMs: appliance.responseTimeoutMs };
      // The configuration with this appliance's origin and TLS settings (buildReadClient reads only those).
      const target = { ...config, url: appliance.url, caFile: appliance.caFile, allowHttpLoopback: appliance.allowHttpLoopback };
      const handle = buildReadClient(target, key, limits);
      handles.push(handle);
      clients.set(appliance.name, handle.client);
    }
  } catch (error) {
    for (const handle of handles) handle.close();
    throw error;
  }
  const first = handles[0] as ReadClientHandle;
  attachReadTools(factory, first.client, undefined, usesInventory(config) ? clients : undefined);
  return () => {
    for (const handle of handles) handle.close();
  };
}
