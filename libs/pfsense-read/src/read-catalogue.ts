import { READ_CAPABILITIES, isCapability } from '@pfsense-mcp/policy';
import type { Capability } from '@pfsense-mcp/policy';
import { z } from 'zod';
import { IDENTIFYING_METADATA } from './identifying-metadata.js';
import { compileModel, modelHasPath } from './model-projection.js';
import { PfrestResponseError } from './pfrest-response-error.js';
import { READ_CATALOGUE_DATA } from './read-catalogue-data.js';
import type { ReadCatalogueEntry } from './read-catalogue-entry.js';
import { READ_MODELS } from './read-models.js';
import type { ProjectOptions, ReadToolDefinition } from './read-tool-definition.js';

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
const ROOT = (): string => '$';

function inputSchemaOf(entry: ReadCatalogueEntry): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  if (entry.plural) {
    shape['limit'] = z
      .number()
      .int()
      .min(MIN_LIMIT)
      .max(MAX_LIMIT)
      .default(DEFAULT_LIMIT)
      .describe(`Most items to return (${MIN_LIMIT}-${MAX_LIMIT}); passed upstream.`);
    shape['offset'] = z
      .number()
      .int()
      .min(0)
      .max(MAX_OFFSET)
      .default(0)
      .describe('Items to skip before the first returned item; passed upstream.');
  }
  if (entry.identifyingFlag) {
    shape['include_identifying_metadata'] = z
      .boolean()
      .default(false)
      .describe('Also return the identifying fields this tool withholds by default.');
  }
  // Strict: an unknown argument (a filter, a typo) is refused, never ignored or passed upstream.
  return z.strictObject(shape);
}

function outputSchemaOf(plural: boolean, item: z.ZodObject): z.ZodObject {
  if (!plural) return z.strictObject({ data: item });
  return z.strictObject({
    data: z.array(item),
    count: z.number().int().min(0),
    limit: z.number().int().min(MIN_LIMIT).max(MAX_LIMIT),
    offset: z.number().int().min(0),
    next_offset: z.number().int().min(0).nullable(),
    truncated: z.boolean(),
  });
}

function descriptionOf(entry: ReadCatalogueEntry, identifying: readonly string[]): string {
  let text = entry.description;
  if (entry.plural) text += ' Paged with limit/offset; next_offset is set when more items may follow.';
  if (identifying.length > 0) {
    text += ` Identifying fields (${identifying.join(', ')}) are null unless include_identifying_metadata is true.`;
  }
  return text + ' Secret fields are never returned.';
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
  const withheldByDefault: ReadonlySet<string> = new Set(identifying);

  function project(data: unknown, opts: ProjectOptions): unknown {
    const withheld = opts?.includeIdentifyingMetadata === true ? NO_FIELDS : withheldByDefault;
    if (!entry.plural) return compiled.project(data, withheld, ROOT);
    if (!Array.isArray(data)) throw new PfrestResponseError('UNEXPECTED_SHAPE', 200, null, '$');
    const items: unknown[] = new Array<unknown>(data.length);
    for (let i = 0; i < data.length; i += 1) items[i] = compiled.project(data[i], withheld, () => `$[${i}]`);
    return Object.freeze(items);
  }

  return Object.freeze({
    name: entry.name,
    title: entry.title,
    description: descriptionOf(entry, identifying),
    group: entry.group,
    capability,
    path: entry.path,
    plural: entry.plural,
    model: entry.model,
    inputSchema: inputSchemaOf(entry),
    outputSchema: outputSchemaOf(entry.plural, compiled.outputSchema),
    supportsIdentifyingMetadata: entry.identifyingFlag,
    identifyingFields: Object.freeze([...identifying]),
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
