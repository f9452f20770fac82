import { CodedError } from '@pfsense-mcp/foundation';

/** A lab failure with a stable code and a value-free message (no description, key, body or header). */
export class LabError extends CodedError<string> {
  override readonly name: string = 'LabError';
  constructor(code: string, message: string) {
    super(code, `${code}: ${message}`);
  }
}

/** The run was interrupted (Ctrl-C / SIGTERM) between two steps. */
export class LabInterruptedError extends LabError {
  constructor() {
    super('INTERRUPTED', 'interrupted: no further step was started');
  }
}
