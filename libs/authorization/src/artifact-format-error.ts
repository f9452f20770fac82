import { CodedError } from '@pfsense-mcp/foundation';

/** Why an artifact file or value was refused before any verification. Stable strings. */
export type ArtifactFormatErrorCode =
  | 'TOO_LARGE'
  | 'NOT_UTF8'
  | 'NOT_JSON'
  | 'NOT_CANONICAL'
  | 'NOT_ENVELOPE'
  | 'UNKNOWN_KIND'
  | 'UNSUPPORTED_VERSION'
  | 'WRONG_KIND'
  | 'SCHEMA'
  | 'INCONSISTENT';

/**
 * Refusal to parse, build or encode an artifact. The message names the rule and, for schema errors, the
 * field path — never a value from the document (descriptions, ids and digests stay out of logs).
 */
export class ArtifactFormatError extends CodedError<ArtifactFormatErrorCode> {
  override readonly name = 'ArtifactFormatError';
  /** Field path like "payload.review.pre_state.descr", or "" for the whole document. */
  readonly path: string;

  constructor(code: ArtifactFormatErrorCode, path: string, detail: string) {
    super(code, `artifact${path === '' ? '' : ` ${path}`}: ${detail} (${code})`);
    this.path = path;
  }
}
