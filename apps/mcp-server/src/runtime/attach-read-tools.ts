import { PFREST_VERSION, type ReadToolDefinition, type RestApiClient } from '@pfsense-mcp/pfsense-read';
import { registerReadTools } from '../tools/register-read-tools.js';
import { classifyToolError } from './classify-tool-error.js';
import type { BaseServer } from './create-base-server.js';
import { selectTools, type ToolSelection } from './select-tools.js';

/** Registers the selected READ tools on a base server (the catalogue and HTTP stack live behind this module). */
export function attachReadTools(base: BaseServer, client: RestApiClient, catalogue?: readonly ReadToolDefinition[]): ToolSelection {
  const selection = selectTools(base.profile, base.allowedTools, catalogue, base.toolsets);
  registerReadTools(base.server, selection.readTools, { client, classifyError: classifyToolError });
  for (const tool of selection.readTools) base.names.add(tool.name);
  base.pfrestVersion = PFREST_VERSION;
  return selection;
}
