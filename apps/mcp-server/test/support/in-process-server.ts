// Fast-test harness: the real McpServer and SDK Client linked in memory, over the real HTTP transport and
// GET-only client, against the in-process simulator. Nothing is mocked.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '@pfsense-mcp/pfsense-sim';
import type { Profile } from '@pfsense-mcp/policy';
import { buildReadClient, createLogger, createMcpServer, observeToolCalls, type ToolSelection, type TransportLimits } from '../../src/index.js';

export interface Harness {
  readonly sim: RunningSimulator;
  readonly client: Client;
  readonly selection: ToolSelection;
  readonly logs: string[];
  close(): Promise<void>;
}

export async function startHarness(
  options: {
    profile?: Profile;
    allowedTools?: ReadonlySet<string> | null;
    toolsets?: ReadonlySet<string> | null;
    sim?: SimulatorOptions;
    limits?: TransportLimits;
  } = {},
): Promise<Harness> {
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
  const { server, selection } = createMcpServer({
    profile: options.profile ?? 'auditor',
    allowedTools: options.allowedTools ?? null,
    toolsets: options.toolsets ?? null,
    client: handle.client,
  });
  const logs: string[] = [];
  const logger = createLogger('debug', (line) => logs.push(line));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(observeToolCalls(serverSide, logger, selection.names));
  const client = new Client({ name: 'mcp-server-test', version: '0.0.0' });
  await client.connect(clientSide);
  return {
    sim,
    client,
    selection,
    logs,
    close: async () => {
      await client.close();
      await server.close();
      handle.close();
      await sim.close();
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
