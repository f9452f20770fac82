import { createHash } from 'node:crypto';
import { InMemoryTransport, type JSONRPCMessage, type Tool } from '@modelcontextprotocol/server';
import { canonicalize } from '@pfsense-mcp/canonical';
import { Capability, isGranted, type Profile } from '@pfsense-mcp/policy';
import { registerWriteOperationsTool } from '../../tools/register-write-operations-tool.js';
import { registerWriteTool } from '../../tools/register-write-tool.js';
import { oneWriteTarget } from '../../tools/write-targets.js';
import { buildReadClient } from './build-read-client.js';
import { createMcpServer } from './create-mcp-server.js';
import { isAliasPatchAllowListed } from '../write-runtime/evaluate-write-gates.js';

export interface ToolManifestEntry {
  readonly name: string;
  readonly title: string | null;
  readonly description_sha256: string;
  readonly input_schema_sha256: string;
  readonly output_schema_sha256: string | null;
  readonly annotations: Readonly<Record<string, unknown>>;
}

export interface ToolManifest {
  readonly profile: Profile;
  readonly tool_count: number;
  readonly tools: readonly ToolManifestEntry[];
}

const sha256 = (value: unknown) => createHash('sha256').update(canonicalize(value)).digest('hex');

/**
 * The public tool surface of a profile exactly as a client sees it over MCP (`tools/list`), reduced to names,
 * annotations and digests of the canonical JSON of each description and schema. Committed per profile
 * (manifest/tools.<profile>.json); a test fails on any drift so the surface changes only on purpose. A profile
 * that grants ALIAS_WRITE lists the write tool as a server with a constructed write runtime does (its handler
 * is never called here).
 */
export async function buildToolManifest(profile: Profile): Promise<ToolManifest> {
  // The client is never called: listing tools sends nothing upstream.
  const handle = buildReadClient(
    {
      url: 'https://127.0.0.1',
      apiKeyFile: '/unused',
      caFile: null,
      profile,
      allowedTools: null,
      toolsets: null,
      logLevel: 'silent',
      allowHttpLoopback: false,
    },
    'manifest-builder-key',
  );
  const { factory } = createMcpServer({ profile, allowedTools: null, client: handle.client });
  if (isGranted(profile, Capability.ALIAS_WRITE) && isAliasPatchAllowListed()) {
    const unused = '/write-directory';
    const never = (): never => {
      throw new Error('manifest only');
    };
    const facade = {
      requestChange: () => Promise.reject(new Error('manifest only')),
      listWriteOperations: never,
      artifactCounts: never,
    };
    const paths = { writeDirectory: unused, outboxDirectory: `${unused}/outbox`, serverPublicKeyFile: `${unused}/keys/server-request.pub` };
    factory.attach((server) => {
      registerWriteTool(server, oneWriteTarget(facade, paths));
      registerWriteOperationsTool(server, oneWriteTarget(facade, paths));
    });
  }
  const server = factory.create();
  const [wire, serverSide] = InMemoryTransport.createLinkedPair();
  try {
    await server.connect(serverSide);
    const tools = await listToolsRaw(wire);
    const entries = tools
      .map((t) => ({
        name: t.name,
        title: t.title ?? null,
        description_sha256: sha256(t.description ?? ''),
        input_schema_sha256: sha256(t.inputSchema),
        output_schema_sha256: t.outputSchema === undefined ? null : sha256(t.outputSchema),
        annotations: { ...(t.annotations ?? {}) },
      }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { profile, tool_count: entries.length, tools: entries };
  } finally {
    await wire.close();
    await server.close();
    handle.close();
  }
}

/**
 * The `tools/list` answer as it is on the wire (the 2025-era handshake; the tool definitions are the same in
 * both eras, which test/server.test.ts proves): no client library between the server and the digests.
 */
async function listToolsRaw(wire: InMemoryTransport): Promise<readonly Tool[]> {
  const listed = new Promise<readonly Tool[]>((resolve, reject) => {
    wire.onmessage = (message: JSONRPCMessage) => {
      if (!('id' in message) || message.id !== 2) return;
      // Through JSON, as a stdio client receives it (the in-memory link hands over live objects).
      if ('result' in message) resolve((JSON.parse(JSON.stringify(message.result)) as { tools: Tool[] }).tools);
      else reject(new Error('buildToolManifest: tools/list failed'));
    };
  });
  await wire.start();
  const clientInfo = { name: 'pfsense-mcp-manifest', version: '0.0.0' };
  await wire.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo } });
  await wire.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  await wire.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
  return listed;
}
