import {
  ArtifactKind,
  ArtifactVerificationError,
  artifactDigestOf,
  checkCurrentness,
  encodeArtifact,
  parseArtifact,
  verifyArtifactSignature,
} from '@pfsense-mcp/authorization';
import type { Artifact, SignedArtifact } from '@pfsense-mcp/authorization';
import { ArtifactDirectory, ArtifactFileError } from '@pfsense-mcp/coordinator';
import { join } from 'node:path';
import { loadPinnedAuthorities, pinnedAuthoritySetOf } from '../runtime/write-directory/pinned-authorities-file.js';
import type { AdminContext } from './admin-context.js';
import { AdminError } from './admin-error.js';
import { adminResult } from './admin-result.js';
import { answeredRequestKey } from './answered-request-key.js';
import type { AdminResult } from './admin-result.js';
import { openWriteDirectory } from './open-write-directory.js';
import type { AdminArgs } from './parse-admin-args.js';
import { readArtifactArgument } from './read-artifact-argument.js';

/** What the operator may hand back: the four kinds an operator key signs. */
const OPERATOR_KINDS: ReadonlySet<string> = new Set([
  ArtifactKind.PLAN_AUTHORIZATION,
  ArtifactKind.CONFIRMATION,
  ArtifactKind.RECONCILIATION,
  ArtifactKind.RELEASE,
]);

const REFUSAL_RULES: Readonly<Record<string, string>> = Object.freeze({
  UNSUPPORTED_ALGORITHM: 'is not signed with Ed25519',
  UNKNOWN_KEY: 'is signed by a key that is not pinned (pfsense-mcp admin trust)',
  INACTIVE_KEY: 'is signed by a key that is not active',
  WRONG_ROLE: 'is signed by a key pinned for another role',
  BAD_SIGNATURE: 'has a signature that does not verify',
  EXPIRED: 'has expired (ask the operator to sign a fresh one)',
  NOT_YET_VALID: 'is issued in the future (check both clocks)',
});

function shortKind(kind: string): string {
  return kind.slice(kind.indexOf('/') + 1);
}

/**
 * A second signed answer to a request already answered in the inbox is refused here, naming the file installed
 * first: two would make the server refuse the operation (it never chooses between them), and removing both is
 * what the runbook would then have said. The first stays and the operation goes on with it. The same artifact
 * again is ALREADY_INSTALLED (its name), checked by the exclusive creation below. An inbox file that cannot be
 * read or parsed is not an answer (`admin artifacts list` reports it).
 */
function refuseSecondAnswer(inboxDir: string, name: string, signed: SignedArtifact, now: number): void {
  let inbox: ArtifactDirectory;
  let names: readonly string[];
  try {
    inbox = ArtifactDirectory.open(inboxDir);
    names = inbox.list();
  } catch (error) {
    if (error instanceof ArtifactFileError) throw new AdminError(`INBOX_${error.code}`, `${inboxDir}: cannot install (${error.code})`);
    throw error;
  }
  const key = answeredRequestKey(signed);
  for (const other of names) {
    if (other === name) continue;
    let existing: Artifact;
    try {
      existing = parseArtifact(inbox.read(other));
    } catch {
      continue;
    }
    if (answeredRequestKey(existing) !== key) continue;
    const path = join(inboxDir, other);
    let current = 'proof' in existing;
    try {
      if (current) checkCurrentness(existing as SignedArtifact, now);
    } catch {
      current = false;
    }
    throw new AdminError(
      'ALREADY_ANSWERED',
      current
        ? `FILE: answers the same request as ${path}, installed earlier; nothing installed — the operation goes on with that file`
        : `FILE: answers the same request as ${path}, which has expired; remove it first (\`pfsense-mcp admin artifacts clean --dir DIR --blocking\`), then add FILE again`,
    );
  }
}

/**
 * `admin inbox add --dir DIR FILE`: verifies an operator-signed artifact (kind, signature against the pinned keys,
 * currentness) and installs a canonical copy in the inbox by exclusive creation (0600, owned by the server
 * user). It grants nothing: the coordinator verifies everything again when it uses the file.
 */
export function inboxAddCommand(args: AdminArgs, ctx: AdminContext, file: string): AdminResult {
  const layout = openWriteDirectory(args, ctx);
  const artifact = readArtifactArgument(file, 'FILE');
  if (!OPERATOR_KINDS.has(artifact.kind)) {
    throw new AdminError(
      'NOT_OPERATOR_ARTIFACT',
      artifact.kind === ArtifactKind.PREPARED_EXECUTION_INTENT || !('proof' in artifact)
        ? 'FILE: is not a signed operator artifact'
        : 'FILE: is a server request; sign it with pfsense-mcp-signer and add the signed result',
    );
  }
  const signed = artifact as SignedArtifact;
  try {
    verifyArtifactSignature(signed, pinnedAuthoritySetOf(loadPinnedAuthorities(layout.authoritiesFile)));
    checkCurrentness(signed, ctx.now());
  } catch (error) {
    if (error instanceof ArtifactVerificationError) {
      throw new AdminError(`ARTIFACT_${error.code}`, `FILE: ${REFUSAL_RULES[error.code] ?? `refused (${error.code})`}`);
    }
    throw error;
  }
  const digest = artifactDigestOf(signed);
  const name = `${shortKind(signed.kind)}.${digest.slice(0, 16)}.json`;
  refuseSecondAnswer(layout.inboxDir, name, signed, ctx.now());
  try {
    ArtifactDirectory.open(layout.inboxDir).write(name, encodeArtifact(signed));
  } catch (error) {
    if (error instanceof ArtifactFileError && error.code === 'EXISTS') {
      throw new AdminError('ALREADY_INSTALLED', `${join(layout.inboxDir, name)}: this artifact is already in the inbox`);
    }
    if (error instanceof ArtifactFileError)
      throw new AdminError(`INBOX_${error.code}`, `${layout.inboxDir}: cannot install (${error.code})`);
    throw error;
  }
  const path = join(layout.inboxDir, name);
  const payload = signed.payload as unknown as Readonly<Record<string, unknown>>;
  const contractId = typeof payload.contract_id === 'string' ? payload.contract_id : null;
  const operationId = typeof payload.operation_id === 'string' ? payload.operation_id : null;
  return adminResult(
    [
      `installed ${signed.kind} → ${path} (0600)`,
      `  signed by key ${signed.payload.key_id}`,
      `  valid until   ${new Date(signed.payload.expires_at).toISOString()}`,
      ...(contractId === null ? [] : [`  contract      ${contractId}`]),
      'next: call the MCP tool again with the same arguments (the server verifies the file again when it uses it)',
    ],
    {
      file: path,
      kind: signed.kind,
      artifact_digest: digest,
      key_id: signed.payload.key_id,
      expires_at: signed.payload.expires_at,
      contract_id: contractId,
      operation_id: operationId,
    },
  );
}
