import { CodedError } from '@pfsense-mcp/foundation';

export type KeyFileErrorCode =
  | 'NOT_FOUND'
  | 'SYMLINK'
  | 'NOT_REGULAR_FILE'
  | 'WRONG_OWNER'
  | 'UNSAFE_MODE'
  | 'TOO_LARGE'
  | 'BAD_FORMAT'
  | 'EXISTS'
  | 'CHANGED'
  | 'IO_ERROR';

/**
 * Refusal to read or write a key/secret file. The message names the rule and the file's base name only —
 * never the content, never the directory part of the path.
 */
export class KeyFileError extends CodedError<KeyFileErrorCode> {
  override readonly name = 'KeyFileError';
  /** The errno code for IO_ERROR (e.g. "EACCES"), otherwise null. */
  readonly errno: string | null;

  constructor(code: KeyFileErrorCode, file: string, rule: string, errno: string | null = null) {
    super(code, `key file ${JSON.stringify(file)}: ${rule} (${code}${errno === null ? '' : ` ${errno}`})`);
    this.errno = errno;
  }
}
