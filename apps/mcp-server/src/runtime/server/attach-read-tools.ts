import { PFREST_VERSION, type ReadToolDefinition, type RestApiClient } from '@pfsense-mcp/pfsense-read';
import { registerReadTools } from '../../tools/register-read-tools.js';
import { classifyToolError } from './classify-tool-error.js';
import type { ServerFactory } from './create-server-factory.js';
import { selectTools, type ToolSelection } from '../config/select-tools.js';

/** Registers the selected READ tools on every instance of a factory (the catalogue and HTTP stack live behind this module). */
export function attachReadTools(factory: ServerFactory, client: RestApiClient, catalogue?: readonly ReadToolDefinition[]): ToolSelection {
  const selection = selectTools(factory.profile, factory.allowedTools, catalogue, factory.toolsets);
  for (const tool of selection.readTools) factory.names.add(tool.name);
  factory.pfrestVersion = PFREST_VERSION;
  factory.attach((server) => registerReadTools(server, selection.readTools, { client, classifyError: classifyToolError }));
  return selection;
}
