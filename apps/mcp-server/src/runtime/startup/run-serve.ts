import type { OpenedWriteTools } from '../server/attach-write-tool.js';
import { createLogger } from './create-logger.js';
import type { ServerFactory } from '../server/create-server-factory.js';
import { earlyOpening, type EarlyOpening } from '../opening/early-opening.js';
import { favourMemoryOverSpeed } from './favour-memory.js';
import type { ServerConfig } from '../config/load-config.js';
import { usesInventory } from '../config/appliances-of.js';
import { readApplianceKeys } from '../config/read-appliance-keys.js';
import { serveStdio } from '../stdio/serve-stdio.js';
import { SERVER_VERSION } from './server-identity.js';

/**
 * Serves MCP over stdio with a validated configuration, in both protocol eras. Everything that can fail on
 * configuration (key file, CA file, profile, allow-list) is checked before serving. The opening reply and the first
 * tools/list come from what the SDK server answers for this configuration, precomputed (early-opening.ts); the write
 * runtime (when the profile grants the write), then the MCP SDK, the READ catalogue and the HTTP stack are loaded
 * right after (docs/DESIGN.md §8).
 * `onShutdown` runs after the connection closes.
 */
export async function runServe(config: ServerConfig, onShutdown?: () => Promise<void>): Promise<number> {
  const logger = createLogger(config.logLevel);
  const keys = readApplianceKeys(config);
  let factory: ServerFactory | null = null;
  let closeClient = (): void => undefined;
  let writeTools: OpenedWriteTools | null = null;
  let closeWrites = (): void => undefined;
  let drainWrites = async (): Promise<boolean> => false;
  let settleWriteTools!: (names: readonly string[]) => void;
  const writeToolNames = new Promise<readonly string[]>((resolve) => (settleWriteTools = resolve));
  return serveStdio({
    logger,
    profile: config.profile,
    version: SERVER_VERSION,
    // With an inventory the tools take `appliance` and pfsense_list_appliances exists: tools/list is the SDK's own
    // answer (the recorded one is the single-appliance surface); the opening replies are the same either way.
    early: withoutEarlyToolsList(earlyOpening(config.profile, config.allowedTools, config.toolsets, writeToolNames), usesInventory(config)),
    load: async () => {
      // The write gates first (write directory, keys, both stores opened and verified): they decide whether the
      // early tools/list names the write tools, so it need not wait for the SDK, the catalogue or the HTTP stack.
      // One runtime per appliance that takes writes (with an inventory, each entry with write_dir).
      const { openWriteTools, openedRuntimes } = await import('../server/attach-write-tool.js');
      writeTools = await openWriteTools(config, keys, logger);
      const runtimes = openedRuntimes(writeTools);
      drainWrites = async () => (await Promise.all(runtimes.map((r) => r.drain()))).some(Boolean);
      closeWrites = () => {
        for (const r of runtimes) r.close();
        if (runtimes.length > 0) logger.log('info', 'write_runtime_closed');
      };
      settleWriteTools(writeTools.names);
      const { createSdkSession } = await import('../stdio/sdk-session.js');
      const created = createSdkSession(config.profile, config.allowedTools, config.toolsets);
      factory = created.factory;
      return created.session;
    },
    attach: async () => {
      if (factory === null || writeTools === null) throw new Error('runServe: attach before load');
      const { attachHttpReadTools } = await import('../server/attach-http-read-tools.js');
      closeClient = attachHttpReadTools(factory, config, keys);
      const { attachOpenedWriteTools } = await import('../server/attach-write-tool.js');
      await attachOpenedWriteTools(factory, writeTools, config, logger);
      // Once the server is up: the start keeps V8's defaults, the reads that follow get the smaller heap.
      favourMemoryOverSpeed();
    },
    // A write in flight finishes before the connection closes (its answer can still reach the client), bounded.
    beforeClose: async () => drainWrites(),
    onShutdown: async () => {
      closeWrites();
      closeClient();
      if (onShutdown !== undefined) await onShutdown();
    },
  });
}

function withoutEarlyToolsList(early: EarlyOpening, inventory: boolean): EarlyOpening {
  return inventory ? Object.freeze({ ...early, toolsListResult: () => undefined }) : early;
}
