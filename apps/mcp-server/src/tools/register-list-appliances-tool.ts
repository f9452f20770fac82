import type { CallToolResult, McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import { findReadTool, runReadTool, type RestApiClient } from '@pfsense-mcp/pfsense-read';
import { z } from 'zod';
import { FLEET_CONCURRENCY } from './fleet-read.js';
import { mapBounded } from './map-bounded.js';
import { readToolAnnotations } from './tool-annotations.js';

import { LIST_APPLIANCES_TOOL_NAME } from './list-appliances-tool-name.js';
import type { ToolCallError } from './tool-error-code.js';

/** The one GET it makes per appliance: pfREST's package version (small, no secret), as --check-config does. */
const VERSION_TOOL = 'pfsense_get_system_restapi_version';

/** The READ capability that gates it: the version read's own (it reads nothing else). */
export function listAppliancesCapability(): string {
  const tool = findReadTool(VERSION_TOOL);
  if (tool === undefined) throw new TypeError(`list appliances: no READ tool ${VERSION_TOOL}`);
  return tool.capability;
}

const ListAppliancesOutputSchema = z.object({
  appliances: z.array(
    z.object({
      name: z.string().describe('The name the READ tools take as `appliance`.'),
      reachable: z.boolean(),
      pfrest_version: z
        .string()
        .nullable()
        .describe('The pfREST package version the appliance reports; null when unreachable or not reported.'),
      error: z.string().nullable().describe('The stable error code of the version read when the appliance was not reachable, else null.'),
      writes_enabled: z
        .boolean()
        .describe('Whether this server writes to the appliance: always false with an inventory (writes are single-appliance).'),
    }),
  ),
});

/**
 * pfsense_list_appliances (a server with PFSENSE_INVENTORY_FILE): the inventory's names in order, with each
 * appliance's pfREST version and reachability from one GET each (at most FLEET_CONCURRENCY at once, each within its
 * own timeouts), and whether writes reach it. Never a URL, a key or a path: the names are what a caller needs.
 */
export function registerListAppliancesTool(
  server: McpServer,
  appliances: ReadonlyMap<string, RestApiClient>,
  classifyError: (error: unknown) => ToolCallError,
): RegisteredTool {
  const versionTool = findReadTool(VERSION_TOOL);
  return server.registerTool(
    LIST_APPLIANCES_TOOL_NAME,
    {
      title: 'List appliances',
      description:
        'List the appliances this server reads (the names READ tools take as appliance; list tools also take a list of names or "*" for all), each with its pfREST version, whether it answered, and whether writes reach it.',
      inputSchema: z.object({}).strict().meta({ $schema: undefined }),
      outputSchema: ListAppliancesOutputSchema,
      annotations: readToolAnnotations('List appliances'),
    },
    async (_input: Record<string, unknown>, ctx: { readonly mcpReq: { readonly signal: AbortSignal } }): Promise<CallToolResult> => {
      const rows = await mapBounded([...appliances], FLEET_CONCURRENCY, async ([name, client]) => {
        try {
          if (versionTool === undefined) throw new TypeError('no version tool');
          const { data } = await runReadTool(client, versionTool, {}, ctx.mcpReq.signal);
          const version = (data as { current_version?: unknown } | null)?.current_version;
          return {
            name,
            reachable: true,
            pfrest_version: typeof version === 'string' ? version : null,
            error: null,
            writes_enabled: false,
          };
        } catch (error) {
          return { name, reachable: false, pfrest_version: null, error: classifyError(error).code, writes_enabled: false };
        }
      });
      const structured = { appliances: rows };
      return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
    },
  );
}
