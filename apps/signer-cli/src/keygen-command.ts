import { join } from 'node:path';
import { bytesToHex } from '@pfsense-mcp/canonical';
import {
  generateEd25519KeyPair,
  isAuthorityRole,
  keyIdOf,
  writeEd25519PrivateKeyFile,
  writeLabGatePrivateKeyFile,
  writeSecretFile,
} from '@pfsense-mcp/crypto';
import type { CliContext } from './cli-context.js';
import { ExitCode } from './exit-code.js';
import { withFileRefusal } from './file-refusal.js';
import { assertSafeOutputDirectory } from './output-directory.js';
import { asciiJson } from './render-safe.js';
import { SignerError } from './signer-error.js';

/** keygen --role ROLE --out DIR: a new Ed25519 key, private half 0600 by exclusive creation. */
export function keygenCommand(ctx: CliContext): number {
  const { role, out } = ctx.args;
  if (ctx.args.file !== undefined) throw new SignerError(ExitCode.USAGE, 'USAGE', 'keygen takes no FILE; see --help');
  if (!isAuthorityRole(role)) {
    throw new SignerError(
      ExitCode.USAGE,
      'USAGE',
      '--role must be plan-authorization, confirmation, reconciliation, server-request or lab-gate',
    );
  }
  if (out === undefined) throw new SignerError(ExitCode.USAGE, 'USAGE', 'missing --out DIR');
  assertSafeOutputDirectory(out, true);
  const { privateKey, publicKey } = generateEd25519KeyPair();
  const keyId = keyIdOf(publicKey);
  const publicHex = bytesToHex(publicKey);
  const base = `${role}-${keyId.slice(0, 16)}`;
  const privatePath = join(out, `${base}.key`);
  const publicPath = join(out, `${base}.pub`);
  try {
    // A lab-gate key has its own file label: no other role's reader accepts it, and it reads no other role's file.
    // Every other key file records its role in its label (v2), so the signer refuses it in another role.
    withFileRefusal('--out', privatePath, () =>
      role === 'lab-gate' ? writeLabGatePrivateKeyFile(privatePath, privateKey) : writeEd25519PrivateKeyFile(privatePath, privateKey, role),
    );
  } finally {
    privateKey.fill(0);
  }
  withFileRefusal('--out', publicPath, () => writeSecretFile(publicPath, `${publicHex}\n`));
  if (ctx.args.json) {
    ctx.stdout.write(
      `${asciiJson({ ok: true, role, key_id: keyId, public_key: publicHex, private_key_file: privatePath, public_key_file: publicPath })}\n`,
    );
  } else {
    const s = ctx.style;
    ctx.stdout.write(
      [
        `${s.green('created')} ${s.bold(role)} key`,
        `  key id       ${keyId}`,
        `  public key   ${publicHex}`,
        `  private key  ${privatePath}  (mode 0600 — keep it on this machine)`,
        `  public file  ${publicPath}`,
        role === 'lab-gate'
          ? `Pin for the lab runner: copy ${base}.pub to lab-gate.pub next to the lab config (key id ${keyId})`
          : `Pin on the server: role ${role}, key id ${keyId}, public key ${publicHex}`,
        '',
      ].join('\n'),
    );
  }
  return ExitCode.OK;
}
