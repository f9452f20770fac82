import type { Capability } from '@pfsense-mcp/policy';
import type { z } from 'zod';
import type { QueryFieldTable } from './query-field.js';

export interface ProjectOptions {
  readonly includeIdentifyingMetadata: boolean;
}

/** What a projection returns: the frozen data and the names of the fields nulled for type drift. */
export interface ProjectedRead {
  readonly data: unknown;
  readonly drift: readonly string[];
}

/**
 * One READ tool, ready to register: metadata, a strict input schema, the exact output schema of what
 * runReadTool returns for it (a zod object at the top level), and its allow-list projection.
 */
export interface ReadToolDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly group: string;
  readonly capability: Capability;
  readonly path: string;
  readonly plural: boolean;
  /** pfrest model behind the path (key of READ_MODELS). */
  readonly model: string;
  readonly inputSchema: z.ZodObject;
  readonly outputSchema: z.ZodObject;
  /**
   * True only when `value` certainly satisfies `outputSchema`, checked in plain code (one pass, no zod): for a
   * caller validating large results. Stricter than the schema, never laxer — false means "ask outputSchema".
   */
  conformsToOutputSchema(value: unknown): boolean;
  readonly supportsIdentifyingMetadata: boolean;
  /** Fields nulled unless include_identifying_metadata is true (IDENTIFYING_METADATA entry; empty if none). */
  readonly identifyingFields: readonly string[];
  /** Upstream fields never returned (secrets, write-only values, free-form blobs), as `field` / `nested.field`. */
  readonly withheldFields: readonly string[];
  /**
   * For a list tool, the fields `fields`, `filter` and `sort_by` may name (the ids and the model's fields, with
   * their kinds and whether they are identifying); null for a singular tool.
   */
  readonly queryFields: QueryFieldTable | null;
  /**
   * Allow-list projection of the envelope's `data`: an array of items for plural tools, one item otherwise.
   * A field of the wrong JSON type is coerced only when lossless, else nulled and named in `drift` (sorted,
   * names only). Throws PfrestResponseError(UNEXPECTED_SHAPE) when `data` or an item is not an object (list).
   */
  project(data: unknown, opts: ProjectOptions): ProjectedRead;
}
