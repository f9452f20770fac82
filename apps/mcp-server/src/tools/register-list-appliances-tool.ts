import type { CallToolResult, McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import { findReadTool, runReadTool, type RestApiClient } from '@pfsense-mcp/pfsense-read';
import { z } from 'zod';
import { FLEET_CONCURRENCY } from './fleet-read.js';
import { mapBounded } from './map-bounded.js';
import { readToolAnnotations } from './tool-annotations.js';
import { writeRuntimeFieldsOf, type WriteArtifactCounts } from './write-runtime-fields.js';

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
        .describe(
          "Whether this server's write tools reach the appliance (its inventory entry has write_dir and its write runtime opened).",
        ),
      writes_refused: z
        .string()
        .nullable()
        .describe(
          'Why writes are off although the appliance has a write directory: the stable code (e.g. its store was refused at open); else null.',
        ),
      write_artifact_files: z
        .object({ inbox: z.number().int().min(0), outbox: z.number().int().min(0) })
        .nullable()
        .describe(
          "Signed files in this appliance's write directory inbox and outbox (a count only), or null without its write runtime. Nothing is deleted automatically.",
        ),
      write_artifacts_warning: z
        .boolean()
        .describe(
          "Leftover request and artifact files have piled up in this appliance's write directory (clean up with `pfsense-mcp admin … --appliance NAME`); they never stop the write.",
        ),
      write_clock_blocked_until: z
        .string()
        .nullable()
        .describe(
          "ISO 8601 UTC: the host clock is behind the latest time this appliance's write path recorded, so each of its signed changes is refused when it is to be prepared until then; null when nothing is held back (or without its write runtime).",
        ),
    }),
  ),
});

/** One appliance's write state at call time (the server's write runtimes are attached after this tool). */
export interface ApplianceWriteState {
  readonly enabled: boolean;
  readonly refused: string | null;
  readonly artifacts: WriteArtifactCounts | null;
  readonly clockBlockedUntil: number | null;
}

/** The row's write fields: each appliance's own runtime (pfsense_mcp_info's counts and clock are for one runtime only). */
function writeFieldsOf(writes: ApplianceWriteState | null) {
  return {
    writes_enabled: writes?.enabled ?? false,
    writes_refused: writes?.refused ?? null,
    ...writeRuntimeFieldsOf(writes?.artifacts ?? null, writes?.clockBlockedUntil ?? null),
  };
}

/**
 * pfsense_list_appliances (a server with PFSENSE_INVENTORY_FILE): the inventory's names in order, with each
 * appliance's pfREST version and reachability from one GET each (at most FLEET_CONCURRENCY at once, each within its
 * own timeouts), whether writes reach it, and its own write runtime's file counts and clock. Never a URL, a key or
 * a path: the names are what a caller needs.
 */
export function registerListAppliancesTool(
  server: McpServer,
  appliances: ReadonlyMap<string, RestApiClient>,
  classifyError: (error: unknown) => ToolCallError,
  writesOf: (name: string) => ApplianceWriteState | null = () => null,
): RegisteredTool {
  const versionTool = findReadTool(VERSION_TOOL);
  return server.registerTool(
    LIST_APPLIANCES_TOOL_NAME,
    {
      title: 'List appliances',
      description:
        'List the appliances this server reads (the names READ tools take as appliance; list tools also take a list of names or "*" for all), each with its pfREST version, whether it answered, whether writes reach it (and why not), and its own write directory\'s signed-file counts and clock hold (write_artifact_files, write_clock_blocked_until).',
      inputSchema: z.object({}).strict().meta({ $schema: undefined }),
      outputSchema: ListAppliancesOutputSchema,
      annotations: readToolAnnotations('List appliances'),
    },
    async (_input: Record<string, unknown>, ctx: { readonly mcpReq: { readonly signal: AbortSignal } }): Promise<CallToolResult> => {
      const rows = await mapBounded([...appliances], FLEET_CONCURRENCY, async ([name, client]) => {
        const write = writeFieldsOf(writesOf(name));
        try {
          if (versionTool === undefined) throw new TypeError('no version tool');
          const { data } = await runReadTool(client, versionTool, {}, ctx.mcpReq.signal);
          const version = (data as { current_version?: unknown } | null)?.current_version;
          return {
            name,
            reachable: true,
            pfrest_version: typeof version === 'string' ? version : null,
            error: null,
            ...write,
          };
        } catch (error) {
          return { name, reachable: false, pfrest_version: null, error: classifyError(error).code, ...write };
        }
      });
      const structured = { appliances: rows };
      return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
    },
  );
}
