/** Refused tool input. Carries the offending argument names and zod issue codes — never the values. */
export class ReadToolInputError extends Error {
  override readonly name = 'ReadToolInputError';
  readonly code = 'INVALID_INPUT';
  readonly tool: string;
  /** e.g. [{ path: 'limit', issue: 'too_big' }, { path: '', issue: 'unrecognized_keys' }] */
  readonly issues: readonly { readonly path: string; readonly issue: string }[];

  constructor(tool: string, issues: readonly { readonly path: string; readonly issue: string }[]) {
    const summary = issues.map((i) => (i.path === '' ? i.issue : `${i.path}: ${i.issue}`)).join('; ');
    super(`${tool}: invalid input (${summary})`);
    this.tool = tool;
    this.issues = Object.freeze(issues.map((i) => Object.freeze({ ...i })));
  }
}
