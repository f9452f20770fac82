import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Profile } from '@pfsense-mcp/policy';
import type { ReadToolDefinition, RestApiClient } from '@pfsense-mcp/pfsense-read';
import { registerInfoTool } from '../tools/register-info-tool.js';
import { registerReadTools } from '../tools/register-read-tools.js';
import { classifyToolError } from './classify-tool-error.js';
import { selectTools, type ToolSelection } from './select-tools.js';
import { PFREST_VERSION } from '@pfsense-mcp/pfsense-read';
import { SERVER_NAME, SERVER_VERSION } from './server-identity.js';

export interface CreateMcpServerOptions {
  readonly profile: Profile;
  readonly allowedTools: ReadonlySet<string> | null;
  readonly client: RestApiClient;
  readonly catalogue?: readonly ReadToolDefinition[];
}

export interface CreatedMcpServer {
  readonly server: McpServer;
  readonly selection: ToolSelection;
}

/**
 * Builds the MCP server with exactly the selected tools. Nothing here touches the network: the client sends
 * only when a tool is called.
 */
export function createMcpServer(options: CreateMcpServerOptions): CreatedMcpServer {
  const selection = selectTools(options.profile, options.allowedTools, options.catalogue);
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION, title: 'pfSense (read-only)' },
    {
      capabilities: { tools: {} },
      instructions:
        'Read-only tools for one pfSense firewall via its REST API. List tools take limit (1-1000) and offset; a result marked truncated: true continues at next_offset.',
    },
  );
  registerReadTools(server, selection.readTools, { client: options.client, classifyError: classifyToolError });
  if (selection.includeInfo) {
    registerInfoTool(server, () => ({
      serverName: SERVER_NAME,
      serverVersion: SERVER_VERSION,
      profile: options.profile,
      pfrestVersion: PFREST_VERSION,
      readToolCount: selection.names.size,
      writeToolCount: 0,
    }));
  }
  return Object.freeze({ server, selection });
}
