import { CodedError } from '@pfsense-mcp/foundation';

export type AuthorityErrorCode =
  'UNSUPPORTED_ALGORITHM' | 'UNKNOWN_KEY' | 'INACTIVE_KEY' | 'WRONG_ROLE' | 'BAD_SIGNATURE' | 'INVALID_ENTRY' | 'DUPLICATE_KEY';

/** Refusal of a pinned-authority check. Carries the role asked for; never a signature or message. */
export class AuthorityError extends CodedError<AuthorityErrorCode> {
  override readonly name = 'AuthorityError';
  readonly role: string | null;

  constructor(code: AuthorityErrorCode, role: string | null, detail: string) {
    super(code, `authority${role === null ? '' : ` (${role})`}: ${detail} (${code})`);
    this.role = role;
  }
}
