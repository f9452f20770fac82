import { CodedError } from '@pfsense-mcp/foundation';

/** Why a value was refused by the canonical encoder. Stable strings: callers and tests match on them. */
export type CanonicalErrorCode =
  | 'FLOAT'
  | 'NON_FINITE'
  | 'NEGATIVE_ZERO'
  | 'UNSAFE_INTEGER'
  | 'UNDEFINED'
  | 'FUNCTION'
  | 'SYMBOL'
  | 'BIGINT'
  | 'NON_PLAIN_OBJECT'
  | 'SYMBOL_KEY'
  | 'ACCESSOR_PROPERTY'
  | 'NON_ENUMERABLE_PROPERTY'
  | 'SPARSE_ARRAY'
  | 'ARRAY_EXTRA_PROPERTY'
  | 'LONE_SURROGATE'
  | 'CYCLE'
  | 'MAX_DEPTH'
  | 'MAX_KEYS'
  | 'MAX_ARRAY_LENGTH'
  | 'MAX_BYTES';

/**
 * Refusal of the canonical encoder. `path` locates the offending node ("$", "$.a[2].b", '$["x y"]');
 * the message names the rule and the path, never the value.
 */
export class CanonicalError extends CodedError<CanonicalErrorCode> {
  override readonly name = 'CanonicalError';
  readonly path: string;

  constructor(code: CanonicalErrorCode, path: string, detail: string) {
    super(code, `canonical: ${detail} at ${path} (${code})`);
    this.path = path;
  }
}
