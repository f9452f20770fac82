import { CodedError } from '@pfsense-mcp/foundation';

/** Why an adapter refused its input (intent, target, snapshot, request). Stable strings. */
export type AdapterInputCode =
  | 'NOT_OBJECT'
  | 'UNKNOWN_FIELD'
  | 'MISSING_FIELD'
  | 'NOT_STRING'
  | 'LONE_SURROGATE'
  | 'NOT_NFC'
  | 'EMPTY'
  | 'TOO_LONG'
  | 'BAD_CHARSET'
  | 'CONTROL_CHARACTER'
  | 'NO_OP'
  | 'TARGET_MISMATCH'
  | 'BAD_LOCATOR'
  | 'MALFORMED'
  // The entries capability's input rules (the input alone is wrong).
  | 'TOO_MANY'
  | 'DUPLICATE'
  | 'NOT_LITERAL'
  | 'NOT_CANONICAL'
  | 'FORBIDDEN_CHARACTER'
  // Its rules against the alias as read: input errors (the caller asked for what is already so) …
  | 'ALREADY_PRESENT'
  | 'NOT_PRESENT'
  // … and refusals (the alias or the operator's bounds do not allow the change).
  | 'CIDR_IN_HOST_ALIAS'
  | 'NOT_CIDR'
  | 'UNSUPPORTED_ALIAS'
  | 'NOT_REFERENCED'
  | 'PREFIX_TOO_BROAD'
  | 'PROTECTED_NETWORK'
  | 'TOO_LARGE';

/** Why the authoritative read did not resolve exactly one acceptable target. Stable strings. */
export type TargetResolutionCode =
  | 'MALFORMED_COLLECTION'
  | 'NOT_FOUND'
  | 'DUPLICATE'
  | 'URL_ALIAS'
  | 'UNSUPPORTED_TYPE'
  | 'MISSING_FIELD'
  | 'MALFORMED_TARGET'
  | 'LOCATOR_INCONSISTENT';

/**
 * Base of every adapter refusal. Messages name the argument and the rule, never a value: a description, an
 * alias name or a response body never appears in an error (they can be sensitive, and they are caller text).
 */
export class AdapterError extends CodedError<string> {
  override readonly name: string = 'AdapterError';
  /** The argument or field the refusal concerns (e.g. "description", "target.address"). */
  readonly argument: string;

  constructor(code: string, argument: string, detail: string) {
    super(code, `${argument}: ${detail} (${code})`);
    this.argument = argument;
  }
}

/** A refused adapter input: an intent, a target object, a snapshot, a resolved target. */
export class AdapterInputError extends AdapterError {
  override readonly name: string = 'AdapterInputError';
  declare readonly code: AdapterInputCode;

  constructor(code: AdapterInputCode, argument: string, detail: string) {
    super(code, argument, detail);
  }
}

/** The authoritative read did not resolve exactly one acceptable target: fail closed, nothing is sent. */
export class TargetResolutionError extends AdapterError {
  override readonly name: string = 'TargetResolutionError';
  declare readonly code: TargetResolutionCode;

  constructor(code: TargetResolutionCode, argument: string, detail: string) {
    super(code, argument, detail);
  }
}
