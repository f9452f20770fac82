import { CodedError } from '@pfsense-mcp/foundation';

/** Why the exchange folder cannot be used: a stable code and a rule naming the path's role, never a file's content. */
export type ExchangeErrorCode = 'NOT_ABSOLUTE' | 'MISSING' | 'SYMLINK' | 'NOT_DIRECTORY' | 'UNREADABLE' | 'PRIVATE_KEY' | 'TOO_LARGE';

export class ExchangeError extends CodedError<ExchangeErrorCode> {
  override readonly name = 'ExchangeError';
}
