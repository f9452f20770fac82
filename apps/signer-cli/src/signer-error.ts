import type { ExitCode } from './exit-code.js';

/** A refusal of the signer, with the exit code it ends in. Messages never carry file contents or keys. */
export class SignerError extends Error {
  override readonly name = 'SignerError';
  readonly code: string;
  readonly exitCode: ExitCode;

  constructor(exitCode: ExitCode, code: string, message: string) {
    super(message);
    this.code = code;
    this.exitCode = exitCode;
  }
}
