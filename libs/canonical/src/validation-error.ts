import { CodedError } from '@pfsense-mcp/foundation';

/** Why a validator refused its argument. Stable strings. */
export type ValidationErrorCode = 'NOT_STRING' | 'LONE_SURROGATE' | 'NOT_NFC' | 'NOT_SAFE_TOKEN' | 'NOT_HEX64' | 'NOT_HEX';

/** Refusal of a validator (`assertNfc`, `assertSafeToken`, `assertHex64`, `hexToBytes`). Never carries the value. */
export class ValidationError extends CodedError<ValidationErrorCode> {
  override readonly name = 'ValidationError';
  /** The argument name the caller passed (e.g. "alias_name"). */
  readonly argument: string;

  constructor(code: ValidationErrorCode, argument: string, detail: string) {
    super(code, `${argument}: ${detail} (${code})`);
    this.argument = argument;
  }
}
