import type { z } from 'zod';
import { markProjectedPrefix } from './projected-items.js';
import { READ_CATALOGUE } from './read-catalogue.js';
import { readListPage } from './read-list-page.js';
import { readQueryOf, type ReadQueryArgs } from './read-query.js';
import type { ReadToolDefinition } from './read-tool-definition.js';
import { ReadToolInputError } from './read-tool-input-error.js';
import type { RestApiClient } from './rest-api-client.js';

/** Result of a plural tool (an MCP structuredContent object). */
export interface PluralReadToolResult {
  readonly data: readonly unknown[];
  /** Items in `data`. */
  readonly count: number;
  readonly limit: number;
  readonly offset: number;
  /** offset + count when the page was full (more items may follow), else null. */
  readonly next_offset: number | null;
  /** true only when a caller cut `data` short after the read (see truncateReadResult). */
  readonly truncated: boolean;
  /** Present only when fields were nulled because their upstream type did not fit: their names, sorted. */
  readonly drift?: readonly string[];
}

/** Result of a singular tool. */
export interface SingularReadToolResult {
  readonly data: unknown;
  /** As for plural results. */
  readonly drift?: readonly string[];
}

export type ReadToolResult = PluralReadToolResult | SingularReadToolResult;

const KNOWN: ReadonlySet<ReadToolDefinition> = new Set(READ_CATALOGUE);

function issuesOf(error: z.ZodError): { path: string; issue: string; message?: string }[] {
  return error.issues.map((i) => ({
    // Unknown keys are reported by name: the key is the caller's own text, which is not a secret.
    path: i.code === 'unrecognized_keys' ? i.keys.join(',') : i.path.map(String).join('.'),
    issue: i.code,
    // The read query's own checks name fields and rules, never a value (read-query.ts).
    ...(i.code === 'custom' ? { message: i.message } : {}),
  }));
}

/**
 * Runs one READ tool: validates `input` with the tool's strict input schema, reads through the GET-only client,
 * projects the data through the allow-list and returns a frozen result that the tool's outputSchema accepts. A
 * singular tool is one GET with no query; a list tool applies `fields`, `filter`, `sort_by` and `sort_order` as
 * readListPage documents (one GET when pfrest can apply every filter). Fields nulled for type drift are named in
 * `drift`. `signal` (the MCP call's cancellation) aborts the GET, queued or on the wire.
 */
export async function runReadTool(
  client: RestApiClient,
  tool: ReadToolDefinition,
  input: unknown,
  signal?: AbortSignal,
): Promise<ReadToolResult> {
  if (!KNOWN.has(tool)) throw new TypeError('runReadTool: "tool" must be an entry of READ_CATALOGUE');
  const parsed = tool.inputSchema.safeParse(input ?? {});
  if (!parsed.success) throw new ReadToolInputError(tool.name, issuesOf(parsed.error));
  const args = parsed.data as ReadQueryArgs & { limit?: number; offset?: number };
  const projectOptions = { includeIdentifyingMetadata: args.include_identifying_metadata === true };
  const table = tool.queryFields;
  if (!tool.plural || table === null) {
    const { data } = await client.read(tool.path, undefined, signal);
    const projected = tool.project(data, projectOptions);
    return Object.freeze(projected.drift.length === 0 ? { data: projected.data } : { data: projected.data, drift: projected.drift });
  }
  const limit = args.limit as number;
  const offset = args.offset as number;
  const page = await readListPage(client, tool, table, { limit, offset }, readQueryOf(table, args), projectOptions, signal);
  const result: PluralReadToolResult = {
    data: page.items,
    count: page.items.length,
    limit,
    offset,
    next_offset: page.nextOffset,
    truncated: false,
  };
  return Object.freeze(page.drift.length === 0 ? result : { ...result, drift: page.drift });
}

/**
 * A plural result cut to its first `keep` items, marked truncated, with next_offset pointing at the first
 * dropped item — for a caller (the MCP server) enforcing a response size bound. Still valid for the tool's
 * outputSchema.
 */
export function truncateReadResult(result: PluralReadToolResult, keep: number): PluralReadToolResult {
  if (!Number.isSafeInteger(keep) || keep < 0 || keep >= result.data.length) {
    throw new RangeError('truncateReadResult: "keep" must be an integer from 0 to data.length - 1');
  }
  const kept = Object.freeze(result.data.slice(0, keep));
  markProjectedPrefix(result.data, kept);
  const cut: PluralReadToolResult = {
    data: kept,
    count: keep,
    limit: result.limit,
    offset: result.offset,
    next_offset: result.offset + keep,
    truncated: true,
  };
  // The drift names describe the read, so they stay with the cut result.
  return Object.freeze(result.drift === undefined ? cut : { ...cut, drift: result.drift });
}
