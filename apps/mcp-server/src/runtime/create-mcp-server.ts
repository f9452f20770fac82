import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Profile } from '@pfsense-mcp/policy';
import type { ReadToolDefinition, RestApiClient } from '@pfsense-mcp/pfsense-read';
import { attachReadTools } from './attach-read-tools.js';
import { createBaseServer } from './create-base-server.js';
import type { ToolSelection } from './select-tools.js';

export interface CreateMcpServerOptions {
  readonly profile: Profile;
  readonly allowedTools: ReadonlySet<string> | null;
  readonly toolsets?: ReadonlySet<string> | null;
  readonly client: RestApiClient;
  readonly catalogue?: readonly ReadToolDefinition[];
}

export interface CreatedMcpServer {
  readonly server: McpServer;
  readonly selection: ToolSelection;
}

/**
 * Builds the MCP server with exactly the selected tools, in one step (tests, the manifest). The program does
 * the same in two steps so it can answer `initialize` first (run-serve.ts). Nothing here touches the network.
 */
export function createMcpServer(options: CreateMcpServerOptions): CreatedMcpServer {
  const base = createBaseServer(options.profile, options.allowedTools, options.toolsets ?? null);
  const selection = attachReadTools(base, options.client, options.catalogue);
  return Object.freeze({ server: base.server, selection });
}
