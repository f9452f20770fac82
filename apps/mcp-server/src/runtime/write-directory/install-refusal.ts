/**
 * Why an operator-signed artifact was not installed in the inbox: a stable code and one line naming the input
 * (`what`: FILE for `admin inbox add`, the answer's name for the exchange folder) and the rule — never a value.
 */
export class InstallRefusal extends Error {
  override readonly name = 'InstallRefusal';
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}
