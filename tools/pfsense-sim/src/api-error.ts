// An error that the router turns into a pfrest error envelope. The message is pfrest-style prose and never
// carries a request value (the simulator's logs and responses must not echo secrets back). Not a CodedError on
// purpose: it models pfrest's envelope, whose `code` is the HTTP status (a number), not one of our stable codes.
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: number;
  readonly responseId: string;

  constructor(code: number, responseId: string, message: string) {
    super(message);
    this.code = code;
    this.responseId = responseId;
  }
}
