import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';
import {
  runReadTool,
  truncateReadResult,
  type PluralReadToolResult,
  type ReadToolDefinition,
  type RestApiClient,
} from '@pfsense-mcp/pfsense-read';
import { boundResultSize } from './bound-result-size.js';
import { precomputedJsonSchema } from './precomputed-json-schema.js';
import { READ_TOOL_JSON_SCHEMA_TARGET, READ_TOOL_JSON_SCHEMAS } from './read-tool-json-schemas.js';
import { rememberSerializedJson } from './serialized-json.js';
import { readToolAnnotations } from './tool-annotations.js';
import { ToolCallError, toolErrorText } from './tool-error-code.js';

/** Turns any failure of a read into a safe, stable ToolCallError (supplied by the composition root). */
export type ClassifyToolError = (error: unknown) => ToolCallError;

export interface ReadToolDeps {
  readonly client: RestApiClient;
  readonly classifyError: ClassifyToolError;
}

/**
 * Registers each READ tool with its catalogue metadata and schemas. A call runs exactly one GET through the
 * GET-only client; the projected result goes out as structuredContent plus the same JSON as one text block,
 * bounded to 1 MiB. Failures become `{"error":{code,message}}` with a stable code and no upstream text.
 */
export function registerReadTools(server: McpServer, tools: readonly ReadToolDefinition[], deps: ReadToolDeps): void {
  for (const tool of tools) {
    // tools/list serves the build-time JSON Schemas (docs/DESIGN.md §8); a tool the generated table does not
    // know (a test's own catalogue) is listed and checked with its zod schemas alone.
    const listed = Object.hasOwn(READ_TOOL_JSON_SCHEMAS, tool.name) ? READ_TOOL_JSON_SCHEMAS[tool.name] : undefined;
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema:
          listed === undefined
            ? tool.inputSchema
            : precomputedJsonSchema(() => tool.inputSchema, {
                target: READ_TOOL_JSON_SCHEMA_TARGET,
                input: listed.input,
                output: listed.input,
              }),
        outputSchema:
          listed === undefined
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
          // The call's cancellation (notifications/cancelled) aborts the GET and frees its in-flight slot.
          const result = await runReadTool(deps.client, tool, input, ctx.mcpReq.signal);
          const plural = tool.plural ? (result as PluralReadToolResult) : null;
          const bounded = boundResultSize(
            result as unknown as Record<string, unknown>,
            plural === null ? null : plural.data,
            plural === null ? null : (keep) => truncateReadResult(plural, keep) as unknown as Record<string, unknown>,
          );
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
