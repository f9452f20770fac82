import { KeyFileError } from '@pfsense-mcp/crypto';
import { ExitCode } from './exit-code.js';
import { SignerError } from './signer-error.js';

/** Runs a file operation; a KeyFileError (unsafe mode, symlink, owner, size, exists…) becomes exit 3. */
export function withFileRefusal<T>(what: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof KeyFileError) throw new SignerError(ExitCode.FILE_REFUSED, e.code, `${what}: ${e.message}`);
    throw e;
  }
}
