import { CodedError } from '@pfsense-mcp/foundation';

/** Exit codes of `pfsense-mcp admin`: 0 done, 1 refused (a rule was not met), 2 usage (bad arguments). */
export const AdminExit = Object.freeze({ OK: 0, REFUSED: 1, USAGE: 2 } as const);
export type AdminExit = (typeof AdminExit)[keyof typeof AdminExit];

/**
 * One admin refusal: a stable code and a one-line message naming the path or argument and the rule it broke —
 * never a value (a key, a description, a file's content).
 */
export class AdminError extends CodedError<string> {
  override readonly name = 'AdminError';
  readonly exitCode: AdminExit;

  constructor(code: string, message: string, exitCode: AdminExit = AdminExit.REFUSED) {
    super(code, message);
    this.exitCode = exitCode;
  }

  static usage(message: string): AdminError {
    return new AdminError('USAGE', message, AdminExit.USAGE);
  }
}
