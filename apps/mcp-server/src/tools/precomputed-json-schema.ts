import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { assertFunction, deepFreeze } from '@pfsense-mcp/foundation';

type JsonSchema = Readonly<Record<string, unknown>>;
type JsonSchemaOptions = Parameters<StandardSchemaWithJSON['~standard']['jsonSchema']['input']>[0];

/**
 * A Standard Schema for the MCP SDK's registerTool whose JSON Schema (what tools/list lists) was computed at
 * build time, and whose validation (what tools/call checks) is the zod schema's own, built on first use. So the
 * server lists a tool without building or converting its zod schema (docs/DESIGN.md §8), and still validates
 * every call with zod. Another JSON Schema target than the precomputed one falls back to zod's conversion.
 * `accepts`, when given, is a plain-code twin of the schema that is stricter, never laxer (a READ tool's
 * conformsToOutputSchema): a value it accepts passes unchanged without a zod walk; anything else goes to zod,
 * which gives the verdict and the issues.
 */
export function precomputedJsonSchema<Input, Output>(
  zodSchema: () => StandardSchemaWithJSON<Input, Output>,
  precomputed: { readonly target: string; readonly input: JsonSchema; readonly output: JsonSchema },
  accepts?: (value: unknown) => boolean,
): StandardSchemaWithJSON<Input, Output> {
  assertFunction(zodSchema, 'precomputedJsonSchema: "zodSchema"');
  if (accepts !== undefined) assertFunction(accepts, 'precomputedJsonSchema: "accepts"');
  return Object.freeze({
    '~standard': Object.freeze({
      version: 1 as const,
      vendor: 'zod',
      validate: (value: unknown) => (accepts?.(value) === true ? { value: value as Output } : zodSchema()['~standard'].validate(value)),
      jsonSchema: Object.freeze({
        input: (options: JsonSchemaOptions) =>
          options.target === precomputed.target
            ? (deepFreeze(precomputed.input) as Record<string, unknown>)
            : zodSchema()['~standard'].jsonSchema.input(options),
        output: (options: JsonSchemaOptions) =>
          options.target === precomputed.target
            ? (deepFreeze(precomputed.output) as Record<string, unknown>)
            : zodSchema()['~standard'].jsonSchema.output(options),
      }),
    }),
  });
}
