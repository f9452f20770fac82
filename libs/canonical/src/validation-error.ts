/** Why a validator refused its argument. Stable strings. */
export type ValidationErrorCode = 'NOT_STRING' | 'LONE_SURROGATE' | 'NOT_NFC' | 'NOT_SAFE_TOKEN' | 'NOT_HEX64' | 'NOT_HEX';

/** Refusal of a validator (`assertNfc`, `assertSafeToken`, `assertHex64`, `hexToBytes`). Never carries the value. */
export class ValidationError extends Error {
  override readonly name = 'ValidationError';
  readonly code: ValidationErrorCode;
  /** The argument name the caller passed (e.g. "alias_name"). */
  readonly argument: string;

  constructor(code: ValidationErrorCode, argument: string, detail: string) {
    super(`${argument}: ${detail} (${code})`);
    this.code = code;
    this.argument = argument;
  }
}
