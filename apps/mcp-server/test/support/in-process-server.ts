// Fast-test harness: the real server factory behind the SDK's stdio entry and the v2 SDK Client, linked in
// memory, over the real HTTP transport and GET-only client, against the in-process simulator. Nothing is
// mocked; the era is chosen by the client's settings, exactly as over a real stdio pipe.
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Client } from '@modelcontextprotocol/client';
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '@pfsense-mcp/pfsense-sim';
import type { Profile } from '@pfsense-mcp/policy';
import {
  buildReadClient,
  createLogger,
  createMcpServer,
  observeToolCalls,
  serverTitle,
  type ServerFactory,
  type ToolSelection,
  type TransportLimits,
} from '../../src/index.js';
import { assertEra, newClient, type Era } from './clients.js';

export interface Harness {
  readonly era: Era;
  readonly sim: RunningSimulator;
  readonly client: Client;
  readonly selection: ToolSelection;
  readonly logs: string[];
  close(): Promise<void>;
}

export async function startHarness(
  options: {
    era?: Era;
    profile?: Profile;
    allowedTools?: ReadonlySet<string> | null;
    toolsets?: ReadonlySet<string> | null;
    sim?: SimulatorOptions;
    limits?: TransportLimits;
  } = {},
): Promise<Harness> {
  const era = options.era ?? 'modern';
  const sim = await startSimulator({ ...options.sim });
  const handle = buildReadClient(
    {
      url: sim.url,
      apiKeyFile: '/unused',
      caFile: null,
      profile: options.profile ?? 'auditor',
      allowedTools: options.allowedTools ?? null,
      toolsets: null,
      logLevel: 'debug',
      allowHttpLoopback: true,
    },
    sim.apiKey,
    options.limits,
  );
  const { factory, selection } = createMcpServer({
    profile: options.profile ?? 'auditor',
    allowedTools: options.allowedTools ?? null,
    toolsets: options.toolsets ?? null,
    client: handle.client,
  });
  const logs: string[] = [];
  const logger = createLogger('debug', (line) => logs.push(line));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const served = serveStdio(() => factory.create(), {
    transport: observeToolCalls(serverSide, logger, selection.names, serverTitle(options.profile ?? 'auditor')),
  });
  const client = newClient(era);
  await client.connect(clientSide);
  assertEra(client, era);
  return {
    era,
    sim,
    client,
    selection,
    logs,
    close: async () => {
      await client.close();
      await served.close();
      handle.close();
      await sim.close();
    },
  };
}

/** A v2 SDK Client of `era` connected in memory to the factory behind the SDK's stdio entry. */
export async function connectFactory(factory: ServerFactory, era: Era = 'modern'): Promise<{ client: Client; close(): Promise<void> }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const served = serveStdio(() => factory.create(), { transport: serverSide });
  const client = newClient(era);
  await client.connect(clientSide);
  assertEra(client, era);
  return {
    client,
    close: async () => {
      await client.close();
      await served.close();
    },
  };
}

/** The parsed `{"error":{...}}` body of a failed tool result. */
export function errorOf(result: object): { code: string; message: string; [k: string]: unknown } {
  const { content: raw, isError } = result as { content?: unknown; isError?: unknown };
  const content = (Array.isArray(raw) ? raw : []) as { type: string; text: string }[];
  const first = content[0];
  if (isError !== true || first === undefined) throw new Error('expected an isError result');
  return (JSON.parse(first.text) as { error: { code: string; message: string } }).error;
}
