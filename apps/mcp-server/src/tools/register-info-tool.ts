import type { McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { localToolAnnotations } from './tool-annotations.js';
import { writeRuntimeFieldsOf, type WriteArtifactCounts } from './write-runtime-fields.js';

export const INFO_TOOL_NAME = 'pfsense_mcp_info';
export const INFO_TOOL_CAPABILITY = 'SERVER_INFO_READ';

export interface ServerFacts {
  readonly serverName: string;
  readonly serverVersion: string;
  readonly profile: string;
  readonly pfrestVersion: string;
  readonly readToolCount: number;
  readonly writeToolCount: number;
  /** The three facts of ALIAS_WRITE (docs/DESIGN.md §6): this build has it, the profile grants it, it is usable now. */
  readonly write: { readonly implemented: boolean; readonly granted: boolean; readonly runtimeEnabled: boolean };
  /** Each write capability's gates (PFSENSE_WRITE_CAPABILITIES, the three gates) and whether its tool is registered now. */
  readonly writeCapabilities: readonly WriteCapabilityFact[];
  /** Artifact files in the write directory's inbox and outbox (counted by name), or null without a write runtime. */
  readonly writeArtifacts: WriteArtifactCounts | null;
  /** While the clock is behind the store's rate windows: until when every write is refused (UTC ms); else null. */
  readonly writeClockBlockedUntil: number | null;
  /** The closed toolset grouping, whether PFSENSE_TOOLSETS selected each set, and the tools each holds. */
  readonly toolsets: readonly ToolsetFact[];
  /** With PFSENSE_INVENTORY_FILE: how many appliances the READ tools reach; null (absent from the result) without. */
  readonly applianceCount?: number | null;
}

/** One write capability's gates as pfsense_mcp_info reports them (the runtime's WriteCapabilityGates build on it). */
export interface WriteCapabilityFact {
  readonly name: string;
  readonly capability: string;
  readonly tool: string;
  /** PFSENSE_WRITE_CAPABILITIES names it (`alias_description` by default): upgrading never adds a write tool. */
  readonly enabled: boolean;
  readonly implemented: boolean;
  readonly granted: boolean;
  readonly allowListed: boolean;
  readonly runtimeEnabled: boolean;
}

export interface ToolsetFact {
  readonly name: string;
  readonly description: string;
  readonly selected: boolean;
  readonly tools: readonly string[];
}

export const InfoOutputSchema = z.object({
  server_name: z.string(),
  server_version: z.string(),
  profile: z.string(),
  pfrest_version: z.string(),
  registered_tool_count: z.number().int().min(0),
  read_tool_count: z.number().int().min(0),
  write_tool_count: z.number().int().min(0),
  write_implemented: z.boolean().describe('ALIAS_WRITE (the alias-description write) is in this build.'),
  write_granted: z.boolean().describe('The active profile grants ALIAS_WRITE.'),
  write_runtime_enabled: z
    .boolean()
    .describe('The write tool is registered now: granted, endpoint allow-listed and write runtime constructed.'),
  write_capabilities: z
    .array(
      z.object({
        name: z.string().describe('The name PFSENSE_WRITE_CAPABILITIES uses (alias_description, alias_entries).'),
        capability: z.string(),
        tool: z.string(),
        enabled: z.boolean().describe('PFSENSE_WRITE_CAPABILITIES names it (alias_description by default).'),
        implemented: z.boolean(),
        granted: z.boolean().describe('The active profile grants the capability.'),
        allow_listed: z.boolean().describe("Its PATCH is in this build's WriteEndpoints."),
        runtime_enabled: z.boolean().describe('Its tool is registered now (every gate held and the write runtime was constructed).'),
      }),
    )
    .describe(
      "Each write capability's gates, as `pfsense-mcp --check-config` prints them; the key's privileges for each are in docs/pfrest-privileges.md. Empty until the write gates were decided.",
    ),
  write_artifact_files: z
    .object({ inbox: z.number().int().min(0), outbox: z.number().int().min(0) })
    .nullable()
    .describe(
      "Signed files in the write directory's inbox and outbox (a count only), or null without a write runtime or with more than one (an inventory: each appliance's is in pfsense_list_appliances). Nothing is deleted automatically.",
    ),
  write_artifacts_warning: z
    .boolean()
    .describe(
      'Leftover request and artifact files have piled up (the operator should clean up with `pfsense-mcp admin`); they never stop the write.',
    ),
  write_clock_blocked_until: z
    .string()
    .nullable()
    .describe(
      "ISO 8601 UTC: the host clock is behind the latest time the write path recorded (it was stepped backwards), so every signed change is refused when it is to be prepared until then; null when the clock holds nothing back (or without a write runtime, or with more than one: each appliance's is in pfsense_list_appliances).",
    ),
  toolsets: z.array(
    z.object({
      name: z.string(),
      description: z.string(),
      selected: z.boolean(),
      tools: z.array(z.string()),
    }),
  ),
  appliance_count: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(
      "Only with an inventory (PFSENSE_INVENTORY_FILE): how many appliances the READ tools reach (pfsense_list_appliances names them, with each one's write state).",
    ),
});

/**
 * pfsense_mcp_info: this process's own facts — version, profile, how many tools it registered, the pfREST
 * version the catalogue targets, the toolsets and what each holds. It calls nothing upstream and holds no configuration value, so it cannot
 * disclose a URL, a path or a key.
 */
export function registerInfoTool(server: McpServer, facts: () => ServerFacts): RegisteredTool {
  return server.registerTool(
    INFO_TOOL_NAME,
    {
      title: 'MCP server info',
      description:
        "Report this MCP server's own version, active capability profile, registered tool counts (READ and WRITE), whether the one write (ALIAS_WRITE) is implemented, granted and runtime-enabled, each write capability's gates (write_capabilities: named in PFSENSE_WRITE_CAPABILITIES, implemented, granted, allow-listed, tool registered), the pfREST version it targets, the toolsets (PFSENSE_TOOLSETS) with the tools each holds, how many signed files wait in the write directory (and whether leftovers piled up), and until when a host clock stepped backwards holds every change back (write_clock_blocked_until). Makes no pfSense API call.",
      // No `$schema` marker, like the READ tools' input schemas (the model-facing list stays small).
      inputSchema: z.object({}).strict().meta({ $schema: undefined }),
      outputSchema: InfoOutputSchema,
      annotations: localToolAnnotations('MCP server info'),
    },
    () => {
      const f = facts();
      const structured = {
        server_name: f.serverName,
        server_version: f.serverVersion,
        profile: f.profile,
        pfrest_version: f.pfrestVersion,
        registered_tool_count: f.readToolCount + f.writeToolCount,
        read_tool_count: f.readToolCount,
        write_tool_count: f.writeToolCount,
        write_implemented: f.write.implemented,
        write_granted: f.write.granted,
        write_runtime_enabled: f.write.runtimeEnabled,
        write_capabilities: f.writeCapabilities.map((c) => ({
          name: c.name,
          capability: c.capability,
          tool: c.tool,
          enabled: c.enabled,
          implemented: c.implemented,
          granted: c.granted,
          allow_listed: c.allowListed,
          runtime_enabled: c.runtimeEnabled,
        })),
        ...writeRuntimeFieldsOf(f.writeArtifacts, f.writeClockBlockedUntil),
        toolsets: f.toolsets,
        ...(f.applianceCount == null ? {} : { appliance_count: f.applianceCount }),
      };
      return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
    },
  );
}
