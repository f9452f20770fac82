import type { Profile } from '@pfsense-mcp/policy';
import type { ReadToolDefinition, RestApiClient } from '@pfsense-mcp/pfsense-read';
import { attachReadTools } from './attach-read-tools.js';
import { createServerFactory, type ServerFactory } from './create-server-factory.js';
import type { ToolSelection } from '../config/select-tools.js';

export interface CreateMcpServerOptions {
  readonly profile: Profile;
  readonly allowedTools: ReadonlySet<string> | null;
  readonly toolsets?: ReadonlySet<string> | null;
  readonly client: RestApiClient;
  readonly catalogue?: readonly ReadToolDefinition[];
}

export interface CreatedMcpServer {
  readonly factory: ServerFactory;
  readonly selection: ToolSelection;
}

/**
 * Builds the server factory with exactly the selected tools, in one step (tests, the manifest). The program does
 * the same in two steps so it can answer the opening request first (run-serve.ts). Nothing here touches the
 * network.
 */
export function createMcpServer(options: CreateMcpServerOptions): CreatedMcpServer {
  const factory = createServerFactory(options.profile, options.allowedTools, options.toolsets ?? null);
  const selection = attachReadTools(factory, options.client, options.catalogue);
  return Object.freeze({ factory, selection });
}
