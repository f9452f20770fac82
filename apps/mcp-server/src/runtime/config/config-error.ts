/**
 * A configuration problem found at startup. The message names the variable and the rule it broke —
 * never the value, which may be a secret pasted into the wrong variable.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly code: string;
  readonly variable: string;

  constructor(code: string, variable: string, message: string) {
    super(message);
    this.code = code;
    this.variable = variable;
  }
}
