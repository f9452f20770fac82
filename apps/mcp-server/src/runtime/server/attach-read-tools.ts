import { isGranted, type Capability } from '@pfsense-mcp/policy';
import { PFREST_VERSION, type ReadToolDefinition, type RestApiClient } from '@pfsense-mcp/pfsense-read';
import { registerReadTools } from '../../tools/register-read-tools.js';
import { LIST_APPLIANCES_TOOL_NAME } from '../../tools/list-appliances-tool-name.js';
import { listAppliancesCapability, registerListAppliancesTool } from '../../tools/register-list-appliances-tool.js';
import { classifyToolError } from './classify-tool-error.js';
import { applianceWritesNow, type ServerFactory } from './create-server-factory.js';
import { selectTools, type ToolSelection } from '../config/select-tools.js';

/**
 * Registers the selected READ tools on every instance of a factory (the catalogue and HTTP stack live behind this
 * module). With `appliances` (a server with PFSENSE_INVENTORY_FILE) every READ tool takes `appliance`, and
 * pfsense_list_appliances is registered when the profile grants its read and PFSENSE_ALLOWED_TOOLS keeps it (like
 * pfsense_mcp_info it is in no toolset).
 */
export function attachReadTools(
  factory: ServerFactory,
  client: RestApiClient,
  catalogue?: readonly ReadToolDefinition[],
  appliances?: ReadonlyMap<string, RestApiClient>,
): ToolSelection {
  const selection = selectTools(factory.profile, factory.allowedTools, catalogue, factory.toolsets);
  for (const tool of selection.readTools) factory.names.add(tool.name);
  factory.pfrestVersion = PFREST_VERSION;
  if (appliances !== undefined) factory.applianceCount = appliances.size;
  const listAppliances =
    appliances !== undefined &&
    isGranted(factory.profile, listAppliancesCapability() as Capability) &&
    (factory.allowedTools === null || factory.allowedTools.has(LIST_APPLIANCES_TOOL_NAME));
  if (listAppliances) factory.names.add(LIST_APPLIANCES_TOOL_NAME);
  factory.attach((server) => {
    registerReadTools(server, selection.readTools, {
      client,
      classifyError: classifyToolError,
      ...(appliances === undefined ? {} : { appliances }),
    });
    if (listAppliances) {
      // Read at call time: the write runtimes are attached after the READ tools.
      registerListAppliancesTool(server, appliances, classifyToolError, (name) => applianceWritesNow(factory, name));
    }
  });
  return selection;
}
