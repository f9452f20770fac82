import { READ_CAPABILITIES, isCapability } from '@pfsense-mcp/policy';
import type { Capability } from '@pfsense-mcp/policy';
import { z } from 'zod';
import { IDENTIFYING_METADATA } from './identifying-metadata.js';
import { compileModel, modelHasPath, type DriftSink } from './model-projection.js';
import { PfrestResponseError } from './pfrest-response-error.js';
import { isProjectedBy, markProjected } from './projected-items.js';
import { READ_CATALOGUE_DATA } from './read-catalogue-data.js';
import type { ReadCatalogueEntry } from './read-catalogue-entry.js';
import { READ_MODELS } from './read-models.js';
import type { FieldKind } from './read-model-spec.js';
import { buildQueryFieldTable, type QueryFieldTable } from './query-field.js';
import { checkReadQuery, readQueryShape, type ReadQueryArgs } from './read-query.js';
import type { ProjectedRead, ProjectOptions, ReadToolDefinition } from './read-tool-definition.js';

/** pfSense-pkg-RESTAPI version the catalogue, models and paths were derived from. */
export const PFREST_VERSION = '2.10.0';

/** Groups of vendor/pfrest/tool-reference.md, in its order (pfsense_mcp_info belongs to the server, in none). */
export const READ_TOOL_GROUPS: readonly string[] = Object.freeze([
  'System and platform',
  'Interfaces, routing, and neighbors',
  'Firewall and NAT',
  'VPN',
  'Users and API identities',
  'DHCP and DNS',
  'Services and scheduled operations',
  'Diagnostics',
]);

export const MIN_LIMIT = 1;
export const MAX_LIMIT = 1000;
export const DEFAULT_LIMIT = 100;
/** A larger offset is certainly past the end of any pfSense collection; the bound keeps inputs small. */
export const MAX_OFFSET = 1_000_000_000;

const NO_FIELDS: ReadonlySet<string> = new Set();
const NO_DRIFT: readonly string[] = Object.freeze([]);
const ROOT = (): string => '$';

// The input schemas carry no per-property descriptions and no `$schema` marker: the names, types, bounds and
// defaults say it all, the server's instructions explain paging, fields, filters and sorting once, and the
// model-facing part of tools/list must stay small (docs/DESIGN.md §8: ≤ 48 KB for the full READ surface). MCP
// reads a schema without `$schema` as JSON Schema 2020-12; these use only keywords that mean the same in draft-07
// and 2020-12.
const NO_SCHEMA_MARKER = { $schema: undefined };

function inputSchemaOf(entry: ReadCatalogueEntry, table: QueryFieldTable | null, withheld: readonly string[]): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  if (entry.plural) {
    shape['limit'] = z.number().int().min(MIN_LIMIT).max(MAX_LIMIT).default(DEFAULT_LIMIT);
    shape['offset'] = z.number().int().min(0).max(MAX_OFFSET).default(0);
    Object.assign(shape, readQueryShape());
  }
  if (entry.identifyingFlag) shape['include_identifying_metadata'] = z.boolean().default(false);
  // Strict: an unknown argument (a typo, a raw pfrest parameter) is refused, never ignored or passed upstream.
  const schema = z.strictObject(shape);
  if (table === null) return schema.meta(NO_SCHEMA_MARKER);
  // The names, the filters and the order are checked against the tool's own fields (read-query.ts).
  return schema.superRefine((args, ctx) => checkReadQuery(table, withheld, args as ReadQueryArgs, ctx)).meta(NO_SCHEMA_MARKER);
}

const PLURAL_KEYS: ReadonlySet<string> = new Set(['data', 'count', 'limit', 'offset', 'next_offset', 'truncated', 'drift']);
const SINGULAR_KEYS: ReadonlySet<string> = new Set(['data', 'drift']);
const isIntIn = (v: unknown, min: number, max: number): boolean => Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max;

/** outputSchemaOf's check in plain code (see ReadToolDefinition.conformsToOutputSchema): stricter, never laxer. */
function conformsToOutputOf(plural: boolean, item: (value: unknown) => boolean, model: object): (value: unknown) => boolean {
  // The projection's own lists are keyed by `model` (what project marks them with): see projected-items.ts.
  return (value) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || Object.getPrototypeOf(value) !== Object.prototype)
      return false;
    const result = value as Record<string, unknown>;
    const allowed = plural ? PLURAL_KEYS : SINGULAR_KEYS;
    for (const key of Object.keys(result)) if (!allowed.has(key)) return false;
    if (Object.hasOwn(result, 'drift')) {
      const drift = result['drift'];
      if (!Array.isArray(drift) || !drift.every((d) => typeof d === 'string')) return false;
    }
    if (!plural) return item(result['data']);
    const data = result['data'];
    if (!Array.isArray(data)) return false;
    const nextOffset = result['next_offset'];
    if (
      !isIntIn(result['count'], 0, Number.MAX_SAFE_INTEGER) ||
      !isIntIn(result['limit'], MIN_LIMIT, MAX_LIMIT) ||
      !isIntIn(result['offset'], 0, Number.MAX_SAFE_INTEGER) ||
      (nextOffset !== null && !isIntIn(nextOffset, 0, Number.MAX_SAFE_INTEGER)) ||
      typeof result['truncated'] !== 'boolean'
    ) {
      return false;
    }
    if (isProjectedBy(data, model)) return true;
    for (const row of data) if (!item(row)) return false;
    return true;
  };
}

function outputSchemaOf(plural: boolean, item: z.ZodObject): z.ZodObject {
  // Present only when a field was nulled for type drift: the names, never values.
  const drift = z.array(z.string()).optional();
  if (!plural) return z.strictObject({ data: item, drift });
  return z.strictObject({
    // A row holds every field, or with `fields` only the ids and the named ones.
    data: z.array(item.partial()),
    count: z.number().int().min(0),
    limit: z.number().int().min(MIN_LIMIT).max(MAX_LIMIT),
    offset: z.number().int().min(0),
    next_offset: z.number().int().min(0).nullable(),
    truncated: z.boolean(),
    drift,
  });
}

/**
 * The purpose sentence, then one sentence on what is withheld: the identifying fields (null unless asked for)
 * and the upstream fields that are never returned, or that nothing is.
 */
function descriptionOf(entry: ReadCatalogueEntry, identifying: readonly string[], never: readonly string[]): string {
  let text = entry.description;
  if (identifying.length > 0) text += ` Withheld unless include_identifying_metadata is true: ${identifying.join(', ')}.`;
  if (never.length > 0) text += ` Never returned: ${never.join(', ')}.`;
  if (identifying.length === 0 && never.length === 0) text += ' No field is withheld.';
  return text;
}

/** The withheld upstream fields of a model and of the models it embeds (`field`, `nested.field`). */
function withheldOf(modelName: string, prefix = ''): string[] {
  const spec = READ_MODELS[modelName];
  if (spec === undefined) return [];
  const out = (spec.withheld ?? []).map((f) => `${prefix}${f}`);
  for (const [name, kind] of Object.entries(spec.fields) as [string, FieldKind][]) {
    if (typeof kind === 'object') out.push(...withheldOf(kind.model, `${prefix}${name}.`));
  }
  return out;
}

function readCapabilityOf(entry: ReadCatalogueEntry): Capability {
  // A READ tool must be gated by a READ capability of the policy library; anything else is a build error.
  if (!isCapability(entry.capability) || !READ_CAPABILITIES.has(entry.capability)) {
    throw new TypeError(`READ_CATALOGUE: "${entry.name}" names no READ capability`);
  }
  return entry.capability;
}

function buildDefinition(entry: ReadCatalogueEntry): ReadToolDefinition {
  const capability = readCapabilityOf(entry);
  const identifying = IDENTIFYING_METADATA[entry.name] ?? [];
  if (identifying.length > 0 && !entry.identifyingFlag) {
    throw new TypeError(`READ_CATALOGUE: "${entry.name}" has identifying fields but no include_identifying_metadata`);
  }
  for (const path of identifying) {
    if (!modelHasPath(READ_MODELS, entry.model, path)) {
      throw new TypeError(`READ_CATALOGUE: identifying field "${path}" is not a field of ${entry.model}`);
    }
  }
  const idFields: ('id' | 'parent_id')[] = entry.plural ? (entry.childOf === null ? ['id'] : ['id', 'parent_id']) : [];
  const compiled = compileModel(READ_MODELS, entry.model, { idFields });
  const queryFields = entry.plural ? buildQueryFieldTable(READ_MODELS, entry.model, idFields, identifying) : null;
  const withheldByDefault: ReadonlySet<string> = new Set(identifying);
  const never = withheldOf(entry.model);

  function project(data: unknown, opts: ProjectOptions): ProjectedRead {
    const withheld = opts?.includeIdentifyingMetadata === true ? NO_FIELDS : withheldByDefault;
    const drift: DriftSink = new Set();
    let projected: unknown;
    if (!entry.plural) {
      projected = compiled.project(data, withheld, ROOT, drift);
    } else {
      // The list and its items are the structure: those still fail the call; only fields drift.
      if (!Array.isArray(data)) throw new PfrestResponseError('UNEXPECTED_SHAPE', 200, null, '$');
      const items: unknown[] = new Array<unknown>(data.length);
      for (let i = 0; i < data.length; i += 1) items[i] = compiled.project(data[i], withheld, () => `$[${i}]`, drift);
      projected = Object.freeze(items);
      markProjected(projected as unknown[], compiled.conforms);
    }
    return Object.freeze({ data: projected, drift: drift.size === 0 ? NO_DRIFT : Object.freeze([...drift].sort()) });
  }

  // The zod schemas are built on first use (a call's validation, a test): listing the tools needs only their
  // JSON Schemas, which the server has precomputed (docs/DESIGN.md §8), so startup builds none of them.
  let inputSchema: z.ZodObject | null = null;
  let outputSchema: z.ZodObject | null = null;
  return Object.freeze({
    name: entry.name,
    title: entry.title,
    description: descriptionOf(entry, identifying, never),
    group: entry.group,
    capability,
    path: entry.path,
    plural: entry.plural,
    model: entry.model,
    get inputSchema(): z.ZodObject {
      return (inputSchema ??= inputSchemaOf(entry, queryFields, never));
    },
    get outputSchema(): z.ZodObject {
      return (outputSchema ??= outputSchemaOf(entry.plural, compiled.outputSchema));
    },
    conformsToOutputSchema: conformsToOutputOf(
      entry.plural,
      entry.plural ? (row) => compiled.conforms(row, true) : (data) => compiled.conforms(data),
      // The same key project() marks its lists with: a wrapper function here would never match one.
      compiled.conforms,
    ),
    supportsIdentifyingMetadata: entry.identifyingFlag,
    identifyingFields: Object.freeze([...identifying]),
    withheldFields: Object.freeze(never),
    queryFields,
    project,
  });
}

/** The 94 pfREST READ tools of vendor/pfrest/tool-reference.md, under the same names, sorted by name. */
export const READ_CATALOGUE: readonly ReadToolDefinition[] = Object.freeze(READ_CATALOGUE_DATA.map(buildDefinition));

const BY_NAME: ReadonlyMap<string, ReadToolDefinition> = new Map(READ_CATALOGUE.map((t) => [t.name, t]));

/** The catalogue entry named `name`, or undefined. */
export function findReadTool(name: string): ReadToolDefinition | undefined {
  return typeof name === 'string' ? BY_NAME.get(name) : undefined;
}
