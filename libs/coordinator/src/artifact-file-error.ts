import { CodedError } from '@pfsense-mcp/foundation';

/** Why an inbox/outbox path or file was refused. Stable strings. */
export type ArtifactFileErrorCode =
  'BAD_NAME' | 'NOT_DIRECTORY' | 'SYMLINK' | 'NOT_REGULAR_FILE' | 'WRONG_OWNER' | 'UNSAFE_MODE' | 'TOO_LARGE' | 'EXISTS' | 'CHANGED' | 'IO';

/** A refused artifact directory or file. Carries the code and the file name (never its content). */
export class ArtifactFileError extends CodedError<ArtifactFileErrorCode> {
  override readonly name = 'ArtifactFileError';
  /** The file name inside the directory, or "" for the directory itself. */
  readonly fileName: string;

  constructor(code: ArtifactFileErrorCode, fileName: string, detail: string) {
    super(code, `artifact ${fileName === '' ? 'directory' : 'file'}: ${detail} (${code})`);
    this.fileName = fileName;
  }
}
