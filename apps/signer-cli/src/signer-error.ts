import type { ExitCode } from './exit-code.js';
import { CodedError } from '@pfsense-mcp/foundation';

/**
 * A refusal of the signer, with the exit code it ends in. Messages never carry file contents or keys, and
 * carry neither a "refused:" prefix nor the code: the reporter (run-cli.ts) adds both, once.
 */
export class SignerError extends CodedError<string> {
  override readonly name = 'SignerError';
  readonly exitCode: ExitCode;

  constructor(exitCode: ExitCode, code: string, message: string) {
    super(code, message);
    this.exitCode = exitCode;
  }

  /**
   * From a library refusal (ArtifactFormatError, ArtifactVerificationError), whose message ends in its own
   * " (CODE)": that suffix is dropped so the reporter's code is the only one. `context` names the input
   * (e.g. "FILE") when the message does not.
   */
  static fromLibrary(exitCode: ExitCode, error: Error & { readonly code: string }, context?: string): SignerError {
    const suffix = ` (${error.code})`;
    const detail = error.message.endsWith(suffix) ? error.message.slice(0, -suffix.length) : error.message;
    return new SignerError(exitCode, error.code, context === undefined ? detail : `${context}: ${detail}`);
  }
}
