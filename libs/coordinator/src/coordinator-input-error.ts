import { CodedError } from '@pfsense-mcp/foundation';

/** Stable codes of an invalid caller argument (checked before any gate; nothing was read or written). */
export type CoordinatorInputCode = 'INVALID_ARGUMENT' | 'UNKNOWN_TARGET';

/**
 * The caller's input is invalid: wrong type, length, control characters, not NFC, or an alias that does not
 * exist (UNKNOWN_TARGET). Names the argument, never its value (descriptions and alias names are caller text).
 */
export class CoordinatorInputError extends CodedError<CoordinatorInputCode> {
  override readonly name = 'CoordinatorInputError';
  /** The argument at fault, by its wire name, e.g. "description" or "alias_name". */
  readonly argument: string;
  /** The underlying validator's stable code (e.g. TOO_LONG, CONTROL_CHARACTER), when there was one. */
  readonly reason: string | null;

  constructor(code: CoordinatorInputCode, argument: string, reason: string | null, detail: string) {
    super(code, `${argument}: ${detail}${reason === null ? '' : ` (${reason})`}`);
    this.argument = argument;
    this.reason = reason;
  }
}
