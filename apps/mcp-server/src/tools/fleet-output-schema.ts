import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { ReadToolDefinition } from '@pfsense-mcp/pfsense-read';
import { z } from 'zod';

/**
 * A list tool's output schema on a server with an inventory: the catalogue's, plus what a fleet read adds (README
 * "Fleet"): each row's `appliance`, the appliances that failed (`errors`: name and stable code, never upstream
 * text) and where each appliance's rows continue (`next_offsets`). All optional, so a read of one named appliance
 * still conforms. Built from zod on first use: a single-appliance server never builds it, and its tools/list stays
 * the precomputed one (docs/DESIGN.md §8). A result the catalogue's plain-code check accepts skips the zod walk.
 */
export function fleetOutputSchema(tool: ReadToolDefinition): StandardSchemaWithJSON {
  const known = MADE.get(tool);
  if (known !== undefined) return known;
  const made = makeFleetOutputSchema(tool);
  MADE.set(tool, made);
  return made;
}

/**
 * Fleet results runFleetRead built from pages the catalogue's plain-code check accepted: each row is such a row
 * plus a string `appliance`, `errors` holds names and codes, `next_offsets` whole offsets. Such a result conforms
 * by construction, so the SDK's output check passes it without a zod walk over every row (docs/DESIGN.md §8).
 */
const CONFORMING = new WeakSet<object>();

/** Marks a fleet result built from conforming pages (fleet-read.ts is the one caller). */
export function markFleetResultConforming(result: object): void {
  CONFORMING.add(result);
}

/** One per tool for the process: the server factory registers the tools again on every McpServer instance. */
const MADE = new WeakMap<ReadToolDefinition, StandardSchemaWithJSON>();

function makeFleetOutputSchema(tool: ReadToolDefinition): StandardSchemaWithJSON {
  let built: z.ZodObject | null = null;
  const schema = (): z.ZodObject => {
    if (built !== null) return built;
    const base = tool.outputSchema;
    const data = base.shape['data'] as z.ZodArray<z.ZodObject>;
    built = base.extend({
      data: z.array(data.element.extend({ appliance: z.string().optional() })),
      errors: z.array(z.strictObject({ appliance: z.string(), code: z.string() })).optional(),
      next_offsets: z.record(z.string(), z.number().int().min(0)).optional(),
    });
    return built;
  };
  return Object.freeze({
    '~standard': Object.freeze({
      version: 1 as const,
      vendor: 'zod',
      validate: (value: unknown) =>
        (typeof value === 'object' && value !== null && CONFORMING.has(value)) || tool.conformsToOutputSchema(value)
          ? { value }
          : schema()['~standard'].validate(value),
      jsonSchema: Object.freeze({
        input: (options: Parameters<StandardSchemaWithJSON['~standard']['jsonSchema']['input']>[0]) =>
          schema()['~standard'].jsonSchema.input(options),
        output: (options: Parameters<StandardSchemaWithJSON['~standard']['jsonSchema']['output']>[0]) =>
          schema()['~standard'].jsonSchema.output(options),
      }),
    }),
  }) as StandardSchemaWithJSON;
}
