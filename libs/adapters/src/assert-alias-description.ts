import { AdapterInputError } from './adapter-error.js';
import { assertNfcArgument } from './assert-alias-name.js';

/**
 * Longest description the product writes (docs/DESIGN.md §5: 1024 accepted, 1025 refused). Counted in UTF-16 code
 * units — what pfrest's length check and the simulator count — so a character outside the BMP counts two;
 * that is stricter than counting code points, never looser.
 */
export const ALIAS_DESCRIPTION_MAX_LENGTH = 1024;

// Unicode control characters (Cc: U+0000–U+001F, U+007F–U+009F) except tab (U+0009) and newline (U+000A).
// eslint-disable-next-line no-control-regex -- matching control characters is the point of this pattern
const FORBIDDEN_CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/u;

/**
 * A new alias description: NFC, 0..1024 characters, no NUL or control character other than tab and newline
 * (docs/DESIGN.md §5). The empty string is a value (it clears the description). Errors never echo the text.
 */
export function assertAliasDescription(value: unknown, argument = 'description'): string {
  const text = assertNfcArgument(value, argument);
  if (text.length > ALIAS_DESCRIPTION_MAX_LENGTH) {
    throw new AdapterInputError('TOO_LONG', argument, `must be at most ${ALIAS_DESCRIPTION_MAX_LENGTH} characters`);
  }
  if (FORBIDDEN_CONTROL.test(text)) {
    throw new AdapterInputError('CONTROL_CHARACTER', argument, 'must not contain NUL or control characters other than tab and newline');
  }
  return text;
}
