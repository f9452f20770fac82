import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';
import {
  runReadTool,
  truncateReadResult,
  type PluralReadToolResult,
  type ReadToolDefinition,
  type RestApiClient,
} from '@pfsense-mcp/pfsense-read';
import { boundResultSize } from './bound-result-size.js';
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
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        outputSchema: tool.outputSchema,
        annotations: readToolAnnotations(tool.title),
      },
      async (input: Record<string, unknown>): Promise<CallToolResult> => {
        try {
          const result = await runReadTool(deps.client, tool, input);
          const plural = tool.plural ? (result as PluralReadToolResult) : null;
          const bounded = boundResultSize(
            result as unknown as Record<string, unknown>,
            plural === null ? null : plural.data,
            plural === null ? null : (keep) => truncateReadResult(plural, keep) as unknown as Record<string, unknown>,
          );
          return { content: [{ type: 'text', text: bounded.text }], structuredContent: bounded.structured };
        } catch (error) {
          const safe = error instanceof ToolCallError ? error : deps.classifyError(error);
          return { content: [{ type: 'text', text: toolErrorText(safe) }], isError: true };
        }
      },
    );
  }
}
