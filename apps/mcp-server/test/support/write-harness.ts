// The in-process write harness: the real server factory with the READ tools and the write tool attached exactly
// as the program does, behind the SDK's stdio entry, the v2 SDK Client of either protocol era in memory, the
// simulator over loopback.
import type { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { RunningSimulator } from '@pfsense-mcp/pfsense-sim';
import type { Profile } from '@pfsense-mcp/policy';
import {
  attachReadTools,
  attachWriteTool,
  buildReadClient,
  createLogger,
  createServerFactory,
  observeToolCalls,
  serverTitle,
  type ServerConfig,
  type WriteAttachment,
} from '../../src/index.js';
import { assertEra, newClient, type Era } from './clients.js';

export interface WriteHarness {
  readonly client: Client;
  readonly attachment: WriteAttachment;
  readonly logs: string[];
  close(): Promise<void>;
}

export function serverConfig(sim: RunningSimulator, extra: Partial<ServerConfig> = {}): ServerConfig {
  return {
    url: sim.url,
    apiKeyFile: '/unused',
    caFile: null,
    profile: 'write_protected',
    allowedTools: null,
    toolsets: null,
    logLevel: 'debug',
    allowHttpLoopback: true,
    write: { dir: null, anchorDir: null, apiKeyFile: null },
    ...extra,
  };
}

/** The program's two-step attach (READ tools, then the write tool), over an in-memory MCP link. */
export async function startWriteHarness(
  config: ServerConfig,
  readApiKey: string,
  options: { allowListed?: () => boolean; era?: Era } = {},
): Promise<WriteHarness> {
  const { era = 'modern', ...attachOptions } = options;
  const logs: string[] = [];
  const logger = createLogger('debug', (line) => logs.push(line));
  const factory = createServerFactory(config.profile as Profile, config.allowedTools, config.toolsets);
  const handle = buildReadClient(config, readApiKey);
  attachReadTools(factory, handle.client);
  const attachment = await attachWriteTool(factory, config, readApiKey, logger, attachOptions);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const served = serveStdio(() => factory.create(), {
    transport: observeToolCalls(serverSide, logger, factory.names, serverTitle(factory.profile)),
  });
  const client = newClient(era, 'mcp-write-test');
  await client.connect(clientSide);
  assertEra(client, era);
  let closed = false;
  return {
    client,
    attachment,
    logs,
    close: async () => {
      if (closed) return;
      closed = true;
      await client.close();
      await served.close();
      if (attachment.runtime !== null) {
        await attachment.runtime.drain();
        attachment.runtime.close();
      }
      handle.close();
    },
  };
}
