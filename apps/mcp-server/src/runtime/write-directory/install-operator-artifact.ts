// The one way an operator-signed artifact enters the inbox (docs/DESIGN.md §6): `admin inbox add` and the exchange
// folder's pickup both install through here, so a file handed over by hand and one picked up are checked alike.
import { join } from 'node:path';
import {
  ArtifactKind,
  ArtifactVerificationError,
  INBOX_ANSWER_KINDS,
  artifactDigestOf,
  checkAnswersThisServer,
  checkCurrentness,
  encodeArtifact,
  parseArtifact,
  verifyArtifactSignature,
} from '@pfsense-mcp/authorization';
import type { Artifact, SignedArtifact } from '@pfsense-mcp/authorization';
import { ArtifactDirectory, ArtifactFileError, inboxArtifactName } from '@pfsense-mcp/coordinator';
import type { PinnedAuthoritySet } from '@pfsense-mcp/crypto';
import { InstallRefusal } from './install-refusal.js';

/** What the operator may hand back: the answers an inbox takes. */
const OPERATOR_KINDS: ReadonlySet<string> = INBOX_ANSWER_KINDS;

const REFUSAL_RULES: Readonly<Record<string, string>> = Object.freeze({
  UNSUPPORTED_ALGORITHM: 'is not signed with Ed25519',
  UNKNOWN_KEY: 'is signed by a key that is not pinned (pfsense-mcp admin trust)',
  INACTIVE_KEY: 'is signed by a key that is not active',
  WRONG_ROLE: 'is signed by a key pinned for another role',
  BAD_SIGNATURE: 'has a signature that does not verify',
  EXPIRED: 'has expired (ask the operator to sign a fresh one)',
  NOT_YET_VALID: 'is issued in the future (check both clocks)',
  OTHER_SERVER:
    "answers a request of another server (another write directory or appliance: its request_key_id is none of this one's server-request keys); nothing installed",
});

/** An installed artifact: its canonical inbox name and path, its digest, and the verified artifact. */
export interface InstalledArtifact {
  readonly name: string;
  readonly path: string;
  readonly digest: string;
  readonly signed: SignedArtifact;
}

/**
 * A second signed answer to a request already answered in the inbox is refused here, naming the file installed
 * first: two would make the server refuse the operation (it never chooses between them), and removing both is
 * what the runbook would then have said. The first stays and the operation goes on with it. Which request a file
 * answers is one rule, its canonical inbox name (`inboxArtifactName`, libs/coordinator): the file holding the
 * same name, or any other readable file whose content has that name (one placed by hand under another name still
 * answers its call). The same artifact again is ALREADY_INSTALLED. An inbox file that cannot be read or parsed is
 * not an answer (`admin artifacts list` reports it); one holding the canonical name is in the way all the same.
 */
function refuseSecondAnswer(inbox: ArtifactDirectory, name: string, digest: string, now: number, what: string): void {
  let names: readonly string[];
  try {
    names = inbox.list();
  } catch (error) {
    if (error instanceof ArtifactFileError)
      throw new InstallRefusal(`INBOX_${error.code}`, `${inbox.path}: cannot install (${error.code})`);
    throw error;
  }
  // The file under the canonical name first: it is the one the operation would go on with.
  for (const other of [...names].sort((a, b) => Number(b === name) - Number(a === name))) {
    const path = join(inbox.path, other);
    let existing: Artifact | null;
    try {
      existing = parseArtifact(inbox.read(other));
    } catch {
      existing = null;
    }
    const answers = existing === null ? null : inboxArtifactName(existing);
    if (other === name && answers !== name) {
      throw new InstallRefusal(
        'ALREADY_INSTALLED',
        `${path}: holds the name ${what} is installed under but ${existing === null ? 'cannot be read' : 'another artifact'}; remove it first (\`pfsense-mcp admin artifacts clean --dir DIR --blocking\`), then add ${what} again`,
      );
    }
    if (existing === null || answers !== name) continue;
    if (artifactDigestOf(existing) === digest) {
      throw new InstallRefusal('ALREADY_INSTALLED', `${path}: ${what} is already installed there`);
    }
    let current = 'proof' in existing;
    try {
      if (current) checkCurrentness(existing as SignedArtifact, now);
    } catch {
      current = false;
    }
    throw new InstallRefusal(
      'ALREADY_ANSWERED',
      current
        ? `${what}: answers the same request as ${path}, installed earlier; nothing installed — the operation goes on with that file`
        : `${what}: answers the same request as ${path}, which has expired; remove it first (\`pfsense-mcp admin artifacts clean --dir DIR --blocking\`), then add ${what} again`,
    );
  }
}

/** A verified operator artifact: the artifact, its digest and the canonical inbox name it is filed under. */
export interface VerifiedOperatorArtifact {
  readonly signed: SignedArtifact;
  readonly digest: string;
  readonly name: string;
}

/**
 * The checks `admin inbox add` makes before installing: an operator kind, the signature against the pinned keys,
 * currentness, that an authorization or confirmation answers one of this write directory's server-request keys
 * (`requestKeyIds` from serverRequestKeyIdsOf; checkAnswersThisServer, the rule the coordinator applies at use —
 * the other answers carry only their contract binding), then a canonical inbox name. Throws InstallRefusal (code
 * and one line naming `what`).
 */
export function verifyOperatorArtifact(
  artifact: Artifact,
  authorities: PinnedAuthoritySet,
  now: number,
  what: string,
  requestKeyIds: readonly string[],
): VerifiedOperatorArtifact {
  if (!OPERATOR_KINDS.has(artifact.kind)) {
    throw new InstallRefusal(
      'NOT_OPERATOR_ARTIFACT',
      artifact.kind === ArtifactKind.PREPARED_EXECUTION_INTENT || !('proof' in artifact)
        ? `${what}: is not a signed operator artifact`
        : `${what}: is a server request; sign it with pfsense-mcp-signer and add the signed result`,
    );
  }
  const signed = artifact as SignedArtifact;
  try {
    verifyArtifactSignature(signed, authorities);
    checkCurrentness(signed, now);
    if (signed.kind === ArtifactKind.PLAN_AUTHORIZATION || signed.kind === ArtifactKind.CONFIRMATION) {
      checkAnswersThisServer(signed, requestKeyIds);
    }
  } catch (error) {
    if (error instanceof ArtifactVerificationError) {
      throw new InstallRefusal(`ARTIFACT_${error.code}`, `${what}: ${REFUSAL_RULES[error.code] ?? `refused (${error.code})`}`);
    }
    throw error;
  }
  // The name carries what the file concerns (docs/DESIGN.md §6): were it ever unreadable, it would refuse only those calls.
  const name = inboxArtifactName(signed);
  if (name === null)
    throw new InstallRefusal('NOT_OPERATOR_ARTIFACT', `${what}: names no plan digest or contract the inbox can file it under`);
  return Object.freeze({ signed, digest: artifactDigestOf(signed), name });
}

/**
 * Verifies an operator-signed artifact (verifyOperatorArtifact), refuses a second answer to the same request, and
 * installs a canonical copy in the inbox by exclusive creation (0600, owned by the server user). It grants
 * nothing: the coordinator verifies everything again when it uses the file. Throws InstallRefusal.
 */
export function installOperatorArtifact(
  inboxDir: string,
  artifact: Artifact,
  authorities: PinnedAuthoritySet,
  now: number,
  what: string,
  requestKeyIds: readonly string[],
): InstalledArtifact {
  const { signed, digest, name } = verifyOperatorArtifact(artifact, authorities, now, what, requestKeyIds);
  let inbox: ArtifactDirectory;
  try {
    inbox = ArtifactDirectory.open(inboxDir);
  } catch (error) {
    if (error instanceof ArtifactFileError) throw new InstallRefusal(`INBOX_${error.code}`, `${inboxDir}: cannot install (${error.code})`);
    throw error;
  }
  refuseSecondAnswer(inbox, name, digest, now, what);
  try {
    inbox.write(name, encodeArtifact(signed));
  } catch (error) {
    if (error instanceof ArtifactFileError && error.code === 'EXISTS') {
      throw new InstallRefusal('ALREADY_INSTALLED', `${join(inboxDir, name)}: a file is already installed under that name`);
    }
    if (error instanceof ArtifactFileError) throw new InstallRefusal(`INBOX_${error.code}`, `${inboxDir}: cannot install (${error.code})`);
    throw error;
  }
  return Object.freeze({ name, path: join(inboxDir, name), digest, signed });
}
