import { CodedError } from '@pfsense-mcp/foundation';

/** What is wrong with the write directory; a stable code the admin CLI and the runtime report. */
export type WriteDirectoryErrorCode =
  | 'NOT_ABSOLUTE'
  | 'PATH_TOO_LONG'
  | 'NOT_FOUND'
  | 'NOT_INITIALIZED'
  | 'SYMLINK'
  | 'NOT_DIRECTORY'
  | 'NOT_REGULAR_FILE'
  | 'WRONG_OWNER'
  | 'UNSAFE_MODE'
  | 'NOT_EMPTY'
  | 'IN_USE'
  | 'MALFORMED'
  | 'IO_ERROR';

/**
 * The write directory (docs/DESIGN.md §6) is not owner-only or not laid out by `pfsense-mcp admin init`.
 * The message names the path and the rule, never a file's content.
 */
export class WriteDirectoryError extends CodedError<WriteDirectoryErrorCode> {
  override readonly name = 'WriteDirectoryError';
  readonly path: string;
  readonly rule: string;

  constructor(code: WriteDirectoryErrorCode, path: string, rule: string) {
    super(code, `${path}: ${rule}`);
    this.path = path;
    this.rule = rule;
  }
}
