import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACT_RULES, ArtifactKind } from '@pfsense-mcp/authorization';
import { KeyFileError, approveCodeOf, readEd25519PrivateKeyFile, readLabGatePrivateKeyFile } from '@pfsense-mcp/crypto';
import type { AuthorityRole } from '@pfsense-mcp/crypto';
import { ExitCode } from './exit-code.js';
import { withFileRefusal } from './file-refusal.js';
import { renderSafe } from './render-safe.js';
import { SignerError } from './signer-error.js';

/** Every request the signer answers, as its review names it. */
export type AnsweredRequest = 'authorization' | 'confirmation' | 'reconciliation' | 'release' | 'rollback' | 'lab-gate';

/** The artifact each request is answered with; its role (ARTIFACT_RULES, the one owner) is the key's role. */
const ANSWER_KIND = Object.freeze({
  authorization: ArtifactKind.PLAN_AUTHORIZATION,
  confirmation: ArtifactKind.CONFIRMATION,
  reconciliation: ArtifactKind.RECONCILIATION,
  release: ArtifactKind.RELEASE,
  rollback: ArtifactKind.ROLLBACK_AUTHORIZATION,
  'lab-gate': ArtifactKind.LAB_GATE_RECEIPT,
} as const);

/** The role whose key answers `request` (and computes its approval code). */
export function roleForRequest(request: AnsweredRequest): AuthorityRole {
  return ARTIFACT_RULES[ANSWER_KIND[request]].role as AuthorityRole;
}

/** An operator key read for one request: the role is what the file records, checked against the request's. */
export interface RoleKey {
  readonly privateKey: Uint8Array;
  readonly publicKey: Uint8Array;
  readonly keyId: string;
  readonly role: AuthorityRole;
}

/** The key files flags: --key FILE or --keys DIR (one of them, never both). */
export interface KeyFlags {
  readonly key: string | undefined;
  readonly keys: string | undefined;
}

/** Reads a key file of any role: an Ed25519 key file (role in its label, or for v1 in its name) or a lab-gate key file. */
function readAnyRole(
  path: string,
  what: string,
): { privateKey: Uint8Array; publicKey: Uint8Array; keyId: string; role: AuthorityRole | null } {
  return withFileRefusal(what, path, () => {
    try {
      return readEd25519PrivateKeyFile(path);
    } catch (e) {
      if (!(e instanceof KeyFileError && e.code === 'BAD_FORMAT')) throw e;
      try {
        return { ...readLabGatePrivateKeyFile(path), role: 'lab-gate' as const };
      } catch {
        throw e;
      }
    }
  });
}

function requestWords(request: AnsweredRequest): string {
  return request === 'lab-gate' ? 'lab gate' : request;
}

/**
 * The key for `request`, from --key FILE or --keys DIR, refused before anything is shown or prompted when it is
 * another role's (WRONG_ROLE_KEY, exit 2, naming the role needed) — docs/DESIGN.md §10. `null` when neither flag.
 */
export function readKeyFor(flags: KeyFlags, request: AnsweredRequest): RoleKey | null {
  if (flags.key !== undefined && flags.keys !== undefined) {
    throw new SignerError(ExitCode.USAGE, 'USAGE', '--key and --keys: give one of them; see --help');
  }
  const needed = roleForRequest(request);
  if (flags.key !== undefined) return checked(readAnyRole(flags.key, '--key'), needed, request);
  if (flags.keys !== undefined) return checked(readFromDirectory(flags.keys, needed), needed, request);
  return null;
}

function checked(
  k: { privateKey: Uint8Array; publicKey: Uint8Array; keyId: string; role: AuthorityRole | null },
  needed: AuthorityRole,
  request: AnsweredRequest,
): RoleKey {
  if (k.role === needed) return { privateKey: k.privateKey, publicKey: k.publicKey, keyId: k.keyId, role: k.role };
  k.privateKey.fill(0);
  if (k.role === null) {
    throw new SignerError(
      ExitCode.USAGE,
      'KEY_ROLE_UNKNOWN',
      `KEY records no role (a version-1 key file not named ROLE-<id>.key); name it ${needed}-<id>.key as keygen did, or make a new key`,
    );
  }
  throw new SignerError(
    ExitCode.USAGE,
    'WRONG_ROLE_KEY',
    `this ${requestWords(request)} request needs a ${needed} key; KEY is a ${k.role} key`,
  );
}

/** --keys DIR: the one file keygen named for the role (`ROLE-<id>.key`, or `ROLE.key`); none or several → refused. */
function readFromDirectory(dir: string, role: AuthorityRole): ReturnType<typeof readAnyRole> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    throw new SignerError(ExitCode.FILE_REFUSED, 'NOT_FOUND', `--keys "${renderSafe(dir)}": not a directory that can be read`);
  }
  const mine = names.filter((n) => n === `${role}.key` || (n.startsWith(`${role}-`) && n.endsWith('.key'))).sort();
  if (mine.length === 0) {
    throw new SignerError(ExitCode.USAGE, 'KEY_NOT_FOUND', `--keys: no ${role} key in the directory (keygen names it ${role}-<id>.key)`);
  }
  if (mine.length > 1) {
    throw new SignerError(
      ExitCode.USAGE,
      'KEY_AMBIGUOUS',
      `--keys: ${mine.length} ${role} keys in the directory; name one with --key FILE`,
    );
  }
  return readAnyRole(join(dir, mine[0] as string), '--keys');
}

/** The approval code of a request for this key (crypto's approveCodeOf, in the key's own role). */
export function approveCodeFor(key: RoleKey, requestDigest: string): string {
  return approveCodeOf(key.privateKey, key.role, requestDigest);
}
