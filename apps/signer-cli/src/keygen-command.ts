import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { bytesToHex } from '@pfsense-mcp/canonical';
import {
  OPERATOR_BUNDLE_ROLES,
  formatOperatorKeyBundle,
  generateEd25519KeyPair,
  isAuthorityRole,
  keyIdOf,
  writeEd25519PrivateKeyFile,
  writeLabGatePrivateKeyFile,
  writeSecretFile,
} from '@pfsense-mcp/crypto';
import type { AuthorityRole } from '@pfsense-mcp/crypto';
import type { CliContext } from './cli-context.js';
import { refuseKeysInExchange } from './exchange-root.js';
import { ExitCode } from './exit-code.js';
import { withFileRefusal } from './file-refusal.js';
import { assertSafeOutputDirectory } from './output-directory.js';
import { asciiJson } from './render-safe.js';
import { SignerError } from './signer-error.js';

/** One new key of `role` in `out`: the private half 0600 by exclusive creation; the .pub too unless `withPub` is false. */
function writeKey(role: AuthorityRole, out: string, withPub: boolean) {
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
  if (withPub) withFileRefusal('--out', publicPath, () => writeSecretFile(publicPath, `${publicHex}\n`));
  return { keyId, publicHex, base, privatePath, publicPath };
}

/**
 * keygen --role operator --out DIR: the three operator keys (plan-authorization, confirmation, reconciliation) at
 * once, and one operator.pub bundle of their public halves with their roles — what `admin trust --bundle` pins.
 */
function keygenOperator(ctx: CliContext, out: string): number {
  const bundlePath = join(out, 'operator.pub');
  // Checked before any key is made, so a refusal leaves no keys without their bundle.
  if (existsSync(bundlePath))
    throw new SignerError(ExitCode.FILE_REFUSED, 'EXISTS', '--out "operator.pub": already exists (never overwritten)');
  const keys = OPERATOR_BUNDLE_ROLES.map((role) => ({ role, ...writeKey(role, out, false) }));
  const bundle = formatOperatorKeyBundle(keys.map((k) => ({ role: k.role, publicKey: k.publicHex })));
  withFileRefusal('--out', bundlePath, () => writeSecretFile(bundlePath, bundle));
  if (ctx.args.json) {
    ctx.stdout.write(
      `${asciiJson({
        ok: true,
        role: 'operator',
        keys: keys.map((k) => ({ role: k.role, key_id: k.keyId, public_key: k.publicHex, private_key_file: k.privatePath })),
        bundle_file: bundlePath,
      })}\n`,
    );
    return ExitCode.OK;
  }
  const s = ctx.style;
  ctx.stdout.write(
    [
      `${s.green('created')} the three ${s.bold('operator')} keys (mode 0600 — keep them on this machine)`,
      ...keys.map((k) => `  ${k.role.padEnd(19)} ${k.keyId}\n                      ${k.privatePath}`),
      `  bundle              ${bundlePath}`,
      'Pin on the server: copy operator.pub (only that file) to the server host, then',
      '  pfsense-mcp admin trust --dir DIR --bundle operator.pub',
      '',
    ].join('\n'),
  );
  return ExitCode.OK;
}

/** keygen --role ROLE --out DIR: a new Ed25519 key, private half 0600 by exclusive creation. */
export function keygenCommand(ctx: CliContext): number {
  const { role, out } = ctx.args;
  if (ctx.args.file !== undefined) throw new SignerError(ExitCode.USAGE, 'USAGE', 'keygen takes no FILE; see --help');
  if (role !== 'operator' && !isAuthorityRole(role)) {
    throw new SignerError(
      ExitCode.USAGE,
      'USAGE',
      '--role must be operator, plan-authorization, confirmation, reconciliation, server-request or lab-gate',
    );
  }
  if (out === undefined) throw new SignerError(ExitCode.USAGE, 'USAGE', 'missing --out DIR');
  assertSafeOutputDirectory(out, true);
  refuseKeysInExchange(out, '--out');
  if (role === 'operator') return keygenOperator(ctx, out);
  const { keyId, publicHex, base, privatePath, publicPath } = writeKey(role, out, true);
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
