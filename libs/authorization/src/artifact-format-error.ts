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
export class ArtifactFormatError extends Error {
  override readonly name = 'ArtifactFormatError';
  readonly code: ArtifactFormatErrorCode;
  /** Field path like "payload.review.pre_state.descr", or "" for the whole document. */
  readonly path: string;

  constructor(code: ArtifactFormatErrorCode, path: string, detail: string) {
    super(`artifact${path === '' ? '' : ` ${path}`}: ${detail} (${code})`);
    this.code = code;
    this.path = path;
  }
}
