import { KeyFileError, readEd25519PrivateKeyFile, readLabGatePrivateKeyFile } from '@pfsense-mcp/crypto';
import { ExitCode } from './exit-code.js';
import { withFileRefusal } from './file-refusal.js';
import { SignerError } from './signer-error.js';

type PrivateKey = { privateKey: Uint8Array; publicKey: Uint8Array; keyId: string };

/** Whether the file holds the other kind of key (read only to word the refusal; zeroed at once). */
function isOtherKind(path: string, read: (p: string) => PrivateKey): boolean {
  try {
    read(path).privateKey.fill(0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads --key for the request kind: a lab gate request only with a lab-gate key file, every other request
 * only with an operator key file. The role is in the file's label, so a lab-gate key is refused in every
 * other role and no other key signs a gate (WRONG_ROLE_KEY, exit 2).
 */
export function readSigningKeyFor(gate: boolean, path: string): PrivateKey {
  const read = gate ? readLabGatePrivateKeyFile : readEd25519PrivateKeyFile;
  const other = gate ? readEd25519PrivateKeyFile : readLabGatePrivateKeyFile;
  try {
    return read(path);
  } catch (e) {
    if (e instanceof KeyFileError && e.code === 'BAD_FORMAT' && isOtherKind(path, other)) {
      throw new SignerError(
        ExitCode.USAGE,
        'WRONG_ROLE_KEY',
        gate
          ? '--key is not a lab-gate key; a lab gate request is signed only in the lab-gate role'
          : '--key is a lab-gate key; it signs lab gate requests only',
      );
    }
    return withFileRefusal('--key', path, () => {
      throw e;
    });
  }
}
