import { CodedError } from '@pfsense-mcp/foundation';

/**
 * A configuration problem found at startup. The message names the variable and the rule it broke —
 * never the value, which may be a secret pasted into the wrong variable.
 */
export class ConfigError extends CodedError<string> {
  override readonly name = 'ConfigError';
  readonly variable: string;

  constructor(code: string, variable: string, message: string) {
    super(code, message);
    this.variable = variable;
  }
}
