/**
 * The one error shape of the product (docs/DESIGN.md §2): a stable `code` callers switch on — an MCP caller sees
 * it, never the message — and a message that names the argument and the rule broken, never a value (a
 * description, an alias name, a key, a response body or a header). Each lib narrows `Code` to its own closed
 * union; `name` stays the concrete class's, for logs.
 */
export class CodedError<Code extends string = string> extends Error {
  override name: string = 'CodedError';
  readonly code: Code;

  constructor(code: Code, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}
