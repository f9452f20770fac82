import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { nearestName } from '@pfsense-mcp/foundation';
import { ToolCallError, ToolErrorCode } from './tool-error-code.js';

/** The appliance argument that reads every appliance of the inventory (list tools only). */
export const ALL_APPLIANCES = '*';
/** The argument every READ tool takes when the server has an inventory (README, Fleet). */
export const APPLIANCE_ARGUMENT = 'appliance';
/** Names listed in an error; the inventory may hold more (pfsense_list_appliances lists them all). */
const MAX_LISTED_NAMES = 16;

/** Where a READ call goes: one appliance (today's result), or several at once (a fleet read, list tools only). */
export type ApplianceTargets =
  { readonly fleet: false; readonly name: string } | { readonly fleet: true; readonly names: readonly string[] };

type JsonSchema = Record<string, unknown>;
const SINGLE: JsonSchema = { type: 'string' };
const SINGLE_OR_LIST: JsonSchema = { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] };

function invalid(detail: string): ToolCallError {
  return new ToolCallError(ToolErrorCode.INVALID_INPUT, { detail: `${APPLIANCE_ARGUMENT}: ${detail}` });
}

function listed(names: readonly string[]): string {
  const shown = names.slice(0, MAX_LISTED_NAMES).join(', ');
  return names.length > MAX_LISTED_NAMES ? `${shown} and ${names.length - MAX_LISTED_NAMES} more` : shown;
}

function unknownName(typed: string, names: readonly string[]): ToolCallError {
  // The inventory's names are safe tokens; the caller's own text is echoed only through a near match.
  const near = nearestName(typed, names, { typoOnly: true });
  return invalid(`not an appliance of this server${near === null ? '' : ` (did you mean ${near}?)`}; one of: ${listed(names)}`);
}

/**
 * Reads the `appliance` argument against the inventory's names (in inventory order). Omitted: the one appliance,
 * or an input error listing the names when there are several. `*` or a list of names: a fleet read, list tools only.
 * The schema lists a plain string (no enum of names, docs/DESIGN.md §8); this is where a name is checked.
 */
export function resolveAppliances(argument: unknown, names: readonly string[], plural: boolean): ApplianceTargets {
  if (argument === undefined) {
    if (names.length === 1) return { fleet: false, name: names[0] as string };
    throw invalid(
      `required: this server reads ${names.length} appliances; name one of: ${listed(names)}${plural ? `, or "${ALL_APPLIANCES}" for all` : ''}`,
    );
  }
  const fleetOnly = () => invalid(`a list of appliances or "${ALL_APPLIANCES}" is for list tools; name one appliance`);
  if (argument === ALL_APPLIANCES) {
    if (!plural) throw fleetOnly();
    return { fleet: true, names };
  }
  if (typeof argument === 'string') {
    if (!names.includes(argument)) throw unknownName(argument, names);
    return { fleet: false, name: argument };
  }
  if (!Array.isArray(argument)) throw invalid('must be a string');
  if (!plural) throw fleetOnly();
  if (argument.length === 0) throw invalid('an empty list names no appliance');
  const chosen: string[] = [];
  for (const name of argument) {
    if (typeof name !== 'string') throw invalid('a list must hold appliance names');
    if (!names.includes(name)) throw unknownName(name, names);
    if (!chosen.includes(name)) chosen.push(name);
  }
  return { fleet: true, names: chosen };
}

/**
 * A READ tool's input schema with the `appliance` argument added (a server with an inventory): listed as a plain
 * string (a list tool: or a list of strings) next to the tool's own arguments, and split off before the tool's own
 * schema checks the rest, so the catalogue's strict schemas and their precomputed JSON Schemas stay as they are.
 */
export function withApplianceArgument<I, O>(schema: StandardSchemaWithJSON<I, O>, plural: boolean): StandardSchemaWithJSON<I, O> {
  const inner = schema['~standard'];
  const addArgument = (json: JsonSchema): JsonSchema => ({
    ...json,
    properties: { ...(json['properties'] as JsonSchema | undefined), [APPLIANCE_ARGUMENT]: plural ? SINGLE_OR_LIST : SINGLE },
  });
  const validate: StandardSchemaWithJSON<I, O>['~standard']['validate'] = (value) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, APPLIANCE_ARGUMENT)) {
      return inner.validate(value);
    }
    const { [APPLIANCE_ARGUMENT]: appliance, ...rest } = value as Record<string, unknown>;
    const typed = typeof appliance === 'string' || (plural && Array.isArray(appliance) && appliance.every((a) => typeof a === 'string'));
    if (!typed)
      return { issues: [{ message: plural ? 'Expected a string or a list of strings' : 'Expected a string', path: [APPLIANCE_ARGUMENT] }] };
    const withAppliance = (result: Awaited<ReturnType<typeof inner.validate>>) =>
      result.issues === undefined ? { value: { ...(result.value as object), [APPLIANCE_ARGUMENT]: appliance } as O } : result;
    const result = inner.validate(rest);
    return result instanceof Promise ? result.then(withAppliance) : withAppliance(result);
  };
  return Object.freeze({
    '~standard': Object.freeze({
      version: 1 as const,
      vendor: inner.vendor,
      validate,
      jsonSchema: Object.freeze({
        input: (options: Parameters<typeof inner.jsonSchema.input>[0]) => addArgument(inner.jsonSchema.input(options)),
        output: (options: Parameters<typeof inner.jsonSchema.output>[0]) => addArgument(inner.jsonSchema.output(options)),
      }),
    }),
  });
}
