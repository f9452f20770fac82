import { hexToBytes } from '@pfsense-mcp/canonical';
import { isValidEd25519PublicKey, keyIdOf, readSecretFile } from '@pfsense-mcp/crypto';
import { ExitCode } from './exit-code.js';
import { withFileRefusal } from './file-refusal.js';
import { SignerError } from './signer-error.js';

const HEX_KEY = /^[0-9a-f]{64}$/;
const KEY_FILE = /^([0-9a-f]{64})\n?$/;

/**
 * A public key given on the command line: 64 lowercase hex, or a file holding exactly that (one optional
 * newline) — what `keygen` writes as ROLE-<id>.pub. The file must be owner-only like every input.
 */
export function readPublicKeyInput(value: string, flag: string): { publicKey: Uint8Array; keyId: string } {
  let hex: string;
  if (HEX_KEY.test(value)) {
    hex = value;
  } else {
    const content = withFileRefusal(flag, value, () => readSecretFile(value, { maxBytes: 256 })).toString('latin1');
    const m = KEY_FILE.exec(content);
    if (m?.[1] === undefined) throw new SignerError(ExitCode.USAGE, 'BAD_PUBLIC_KEY', `${flag}: file must hold 64 hex characters`);
    hex = m[1];
  }
  const publicKey = hexToBytes(hex);
  if (!isValidEd25519PublicKey(publicKey))
    throw new SignerError(ExitCode.USAGE, 'BAD_PUBLIC_KEY', `${flag}: not a valid Ed25519 public key`);
  return { publicKey, keyId: keyIdOf(publicKey) };
}
