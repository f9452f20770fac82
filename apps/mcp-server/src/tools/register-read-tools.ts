import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';
import {
  runReadTool,
  truncateReadResult,
  type PluralReadToolResult,
  type ReadToolDefinition,
  type RestApiClient,
} from '@pfsense-mcp/pfsense-read';
import { APPLIANCE_ARGUMENT, resolveAppliances, withApplianceArgument } from './appliance-argument.js';
import { boundResultSize, type BoundedResult } from './bound-result-size.js';
import { fleetOutputSchema } from './fleet-output-schema.js';
import { runFleetRead } from './fleet-read.js';
import { precomputedJsonSchema } from './precomputed-json-schema.js';
import { READ_TOOL_JSON_SCHEMA_TARGET, READ_TOOL_JSON_SCHEMAS } from './read-tool-json-schemas.js';
import { rememberSerializedJson } from './serialized-json.js';
import { readToolAnnotations } from './tool-annotations.js';
import { ToolCallError, toolErrorText } from './tool-error-code.js';

/** Turns any failure of a read into a safe, stable ToolCallError (supplied by the composition root). */
export type ClassifyToolError = (error: unknown) => ToolCallError;

export interface ReadToolDeps {
  /** The one appliance's client (a server without an inventory): every call reads through it. */
  readonly client: RestApiClient;
  readonly classifyError: ClassifyToolError;
  /**
   * With PFSENSE_INVENTORY_FILE: each appliance's client by name, in inventory order. Every tool then takes
   * `appliance` (appliance-argument.ts) and list tools read several at once (fleet-read.ts); without it the tools
   * are exactly the single-appliance ones.
   */
  readonly appliances?: ReadonlyMap<string, RestApiClient>;
}

/**
 * Registers each READ tool with its catalogue metadata and schemas. A call runs exactly one GET through the
 * GET-only client; the projected result goes out as structuredContent plus the same JSON as one text block,
 * bounded to 1 MiB. Failures become `{"error":{code,message}}` with a stable code and no upstream text.
 */
export function registerReadTools(server: McpServer, tools: readonly ReadToolDefinition[], deps: ReadToolDeps): void {
  const appliances = deps.appliances ?? null;
  const names = appliances === null ? [] : [...appliances.keys()];
  for (const tool of tools) {
    // tools/list serves the build-time JSON Schemas (docs/DESIGN.md §8); a tool the generated table does not
    // know (a test's own catalogue) is listed and checked with its zod schemas alone.
    const listed = Object.hasOwn(READ_TOOL_JSON_SCHEMAS, tool.name) ? READ_TOOL_JSON_SCHEMAS[tool.name] : undefined;
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: ((schema) => (appliances === null ? schema : withApplianceArgument(schema, tool.plural)))(
          listed === undefined
            ? tool.inputSchema
            : precomputedJsonSchema(() => tool.inputSchema, {
                target: READ_TOOL_JSON_SCHEMA_TARGET,
                input: listed.input,
                output: listed.input,
              }),
        ),
        outputSchema:
          appliances !== null && tool.plural
            ? fleetOutputSchema(tool)
            : listed === undefined
              ? tool.outputSchema
              : precomputedJsonSchema(
                  () => tool.outputSchema,
                  { target: READ_TOOL_JSON_SCHEMA_TARGET, input: listed.output, output: listed.output },
                  // The SDK checks every result against the output schema; a projected result passes the plain-code
                  // twin of it in one pass instead of a zod walk per row (docs/DESIGN.md §8).
                  (value) => tool.conformsToOutputSchema(value),
                ),
        annotations: readToolAnnotations(tool.title),
      },
      async (input: Record<string, unknown>, ctx: { readonly mcpReq: { readonly signal: AbortSignal } }): Promise<CallToolResult> => {
        try {
          let bounded: BoundedResult;
          if (appliances === null) bounded = await readOne(deps.client, tool, input, ctx.mcpReq.signal);
          else {
            const { [APPLIANCE_ARGUMENT]: appliance, ...rest } = input;
            const targets = resolveAppliances(appliance, names, tool.plural);
            bounded = targets.fleet
              ? await runFleetRead(tool, rest, appliances, targets.names, ctx.mcpReq.signal, deps.classifyError)
              : await readOne(appliances.get(targets.name) as RestApiClient, tool, rest, ctx.mcpReq.signal);
          }
          // The reply line reuses the text for structuredContent instead of serializing the result again.
          rememberSerializedJson(bounded.structured, bounded.text);
          return { content: [{ type: 'text', text: bounded.text }], structuredContent: bounded.structured };
        } catch (error) {
          const safe = error instanceof ToolCallError ? error : deps.classifyError(error);
          return { content: [{ type: 'text', text: toolErrorText(safe) }], isError: true };
        }
      },
    );
  }
}

/** One appliance's read, bounded to 1 MiB: the result every READ tool gave before fleets. */
async function readOne(client: RestApiClient, tool: ReadToolDefinition, input: unknown, signal: AbortSignal): Promise<BoundedResult> {
  // The call's cancellation (notifications/cancelled) aborts the GET and frees its in-flight slot.
  const result = await runReadTool(client, tool, input, signal);
  const plural = tool.plural ? (result as PluralReadToolResult) : null;
  return boundResultSize(
    result as unknown as Record<string, unknown>,
    plural === null ? null : plural.data,
    plural === null ? null : (keep) => truncateReadResult(plural, keep) as unknown as Record<string, unknown>,
  );
}
