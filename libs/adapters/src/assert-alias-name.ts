import { ValidationError, assertNfc } from '@pfsense-mcp/canonical';
import { ALIAS_NAME_CHARSET, ALIAS_NAME_MAX_LENGTH } from '@pfsense-mcp/foundation';
import { AdapterInputError } from './adapter-error.js';

/** Rethrows canonical's NFC refusal as the adapter's own error, naming the same argument. */
export function assertNfcArgument(value: unknown, argument: string): string {
  try {
    return assertNfc(value, argument);
  } catch (error) {
    if (error instanceof ValidationError) {
      const code = error.code === 'NOT_STRING' || error.code === 'LONE_SURROGATE' ? error.code : 'NOT_NFC';
      throw new AdapterInputError(code, argument, code === 'NOT_STRING' ? 'must be a string' : 'must be a well-formed NFC string');
    }
    throw error;
  }
}

/**
 * The natural identity of an alias: its exact name, NFC, case-sensitive (docs/DESIGN.md §5). No
 * trimming, folding or normalization: a name that is not already exact is refused.
 */
export function assertAliasName(value: unknown, argument = 'alias_name'): string {
  const name = assertNfcArgument(value, argument);
  if (name.length === 0) throw new AdapterInputError('EMPTY', argument, 'must not be empty');
  if (name.length > ALIAS_NAME_MAX_LENGTH) {
    throw new AdapterInputError('TOO_LONG', argument, `must be at most ${ALIAS_NAME_MAX_LENGTH} characters`);
  }
  if (!ALIAS_NAME_CHARSET.test(name)) throw new AdapterInputError('BAD_CHARSET', argument, 'must contain only A-Z, a-z, 0-9 and _');
  return name;
}
