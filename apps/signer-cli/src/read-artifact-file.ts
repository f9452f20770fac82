import { ArtifactFormatError, MAX_ARTIFACT_BYTES, parseArtifact } from '@pfsense-mcp/authorization';
import type { Artifact } from '@pfsense-mcp/authorization';
import { readSecretFile } from '@pfsense-mcp/crypto';
import { ExitCode } from './exit-code.js';
import { withFileRefusal } from './file-refusal.js';
import { SignerError } from './signer-error.js';

/**
 * Reads an artifact file with the same rules as a key file — regular file, no symlink, owned by the current
 * user, mode 0600 or 0400, at most MAX_ARTIFACT_BYTES — then parses it strictly (canonical JSON, known kind and version).
 */
export function readArtifactFile(path: string, flag: string): Artifact {
  const bytes = withFileRefusal(flag, path, () => readSecretFile(path, { maxBytes: MAX_ARTIFACT_BYTES }));
  try {
    return parseArtifact(bytes);
  } catch (e) {
    if (e instanceof ArtifactFormatError) throw SignerError.fromLibrary(ExitCode.ARTIFACT_REFUSED, e, flag);
    throw e;
  }
}
