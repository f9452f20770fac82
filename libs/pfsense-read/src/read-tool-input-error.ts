import { CodedError } from '@pfsense-mcp/foundation';

/** One refused argument: its path, the zod issue code and, for the read query's own checks, a message naming
 * fields and rules (never a value). */
export interface ReadToolInputIssue {
  readonly path: string;
  readonly issue: string;
  readonly message?: string;
}

/** Refused tool input. Carries the offending argument names and zod issue codes — never the values. */
export class ReadToolInputError extends CodedError<'INVALID_INPUT'> {
  override readonly name = 'ReadToolInputError';
  readonly tool: string;
  /** e.g. [{ path: 'limit', issue: 'too_big' }, { path: '', issue: 'unrecognized_keys' }] */
  readonly issues: readonly ReadToolInputIssue[];

  constructor(tool: string, issues: readonly ReadToolInputIssue[]) {
    super('INVALID_INPUT', `${tool}: invalid input (${summaryOf(issues)})`);
    this.tool = tool;
    this.issues = Object.freeze(issues.map((i) => Object.freeze({ ...i })));
  }

  /** The issues as one line (`path: message-or-code; …`), for an MCP caller's error detail. */
  get summary(): string {
    return summaryOf(this.issues);
  }
}

function summaryOf(issues: readonly ReadToolInputIssue[]): string {
  return issues
    .map((i) => {
      const what = i.message ?? i.issue;
      return i.path === '' ? what : `${i.path}: ${what}`;
    })
    .join('; ');
}
