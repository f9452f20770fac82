/** A lab failure with a stable code and a value-free message (no description, key, body or header). */
export class LabError extends Error {
  override readonly name = 'LabError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}

/** The run was interrupted (Ctrl-C / SIGTERM) between two steps. */
export class LabInterruptedError extends LabError {
  constructor() {
    super('INTERRUPTED', 'interrupted: no further step was started');
  }
}
