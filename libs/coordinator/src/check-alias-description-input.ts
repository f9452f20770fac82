import { AdapterInputError, parseAliasDescriptionInput } from '@pfsense-mcp/adapters';
import type { AliasDescriptionChangeInput } from './alias-description-change.js';
import { CoordinatorInputError } from './coordinator-input-error.js';

const ARGUMENT_NAMES: Readonly<Record<string, string>> = Object.freeze({ alias_name: 'aliasName', description: 'description' });

/**
 * The caller's {aliasName, description}, checked by the alias adapter's own input rules; any problem is a
 * CoordinatorInputError naming the caller's argument (never its value).
 */
export function checkAliasDescriptionInput(input: AliasDescriptionChangeInput): { alias_name: string; description: string } {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new CoordinatorInputError('INVALID_ARGUMENT', 'input', null, 'must be an object {aliasName, description}');
  }
  const extra = Object.keys(input).find((k) => k !== 'aliasName' && k !== 'description');
  if (extra !== undefined)
    throw new CoordinatorInputError('INVALID_ARGUMENT', 'input', 'UNKNOWN_FIELD', 'must have only aliasName and description');
  try {
    return parseAliasDescriptionInput({ alias_name: input.aliasName, description: input.description });
  } catch (e) {
    if (e instanceof AdapterInputError) {
      const argument = ARGUMENT_NAMES[e.argument] ?? 'input';
      throw new CoordinatorInputError('INVALID_ARGUMENT', argument, e.code, 'is invalid');
    }
    throw new CoordinatorInputError('INVALID_ARGUMENT', 'input', null, 'is invalid');
  }
}
