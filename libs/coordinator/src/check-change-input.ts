import { AdapterInputError } from '@pfsense-mcp/adapters';
import type { WriteCapability } from './capability-registry.js';
import { CoordinatorInputError } from './coordinator-input-error.js';

/**
 * The caller's input, by its wire names, checked by the capability adapter's own input rules; any problem is
 * a CoordinatorInputError naming the wire argument (never its value).
 */
export function checkChangeInput(adapter: WriteCapability, input: unknown): object {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new CoordinatorInputError('INVALID_ARGUMENT', 'input', null, 'must be an object');
  }
  try {
    return adapter.parseInput(input);
  } catch (e) {
    if (e instanceof AdapterInputError) {
      // The adapter names `input` or `input.<field>` for the whole object and a missing field, else the field.
      const argument = e.argument.startsWith('input.') ? e.argument.slice('input.'.length) : e.argument;
      throw new CoordinatorInputError('INVALID_ARGUMENT', argument, e.code, 'is invalid');
    }
    throw new CoordinatorInputError('INVALID_ARGUMENT', 'input', null, 'is invalid');
  }
}
