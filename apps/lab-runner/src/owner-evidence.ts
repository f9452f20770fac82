// The owner's signed answer to a run's pending request of role reconciliation (docs/DESIGN.md §7): found in
// the evidence directory the pause printed, checked before the resume touches the appliance — the signed kind
// that answers the request, signed in role reconciliation by the owner's pinned key, for the same contract and
// state version — then handed to the subject's inbox, where the coordinator verifies it once more.
import { chmodSync, existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  ArtifactFormatError,
  ArtifactKind,
  ArtifactVerificationError,
  artifactDigestOf,
  parseArtifact,
  verifyArtifactSignature,
} from '@pfsense-mcp/authorization';
import type { Artifact } from '@pfsense-mcp/authorization';
import { KeyFileError, readSecretFile, writeSecretFile } from '@pfsense-mcp/crypto';
import type { PinnedAuthoritySet } from '@pfsense-mcp/crypto';
import type { SignedRecord } from './lab-owner.js';
import type { OwnerPauseInfo } from './owner-pause.js';
import { ResumeError } from './run-state.js';

const MAX_ARTIFACT_BYTES = 1024 * 1024;

/** The directory the owner's signer writes its answer to, one per pause of the run. */
export function evidenceDirOf(runDir: string, pause: number): string {
  return join(runDir, `evidence-${pause}`);
}

function readArtifact(path: string, what: string): Artifact {
  try {
    return parseArtifact(readSecretFile(path, { maxBytes: MAX_ARTIFACT_BYTES }));
  } catch (e) {
    if (e instanceof KeyFileError)
      throw new ResumeError(`EVIDENCE_${e.code}`, `${what}: ${e.code} (owner-only regular file, mode 0600 or 0400)`);
    if (e instanceof ArtifactFormatError) throw new ResumeError(`EVIDENCE_${e.code}`, `${what}: not a valid artifact (${e.code})`);
    throw e;
  }
}

/**
 * Exactly one file in the evidence directory, the signed kind answering `pending` (reconciliation evidence or a
 * reservation release), verified against `pins` (the owner's reconciliation key; every other key the run knows
 * pinned in its own role, so a signature by one of them is WRONG_ROLE), for the contract and state version of
 * the pending request. Returns the bytes and the digests to record.
 */
export function checkOwnerEvidence(
  evidenceDir: string,
  pendingPath: string,
  pending: OwnerPauseInfo,
  pins: PinnedAuthoritySet,
): { readonly fileName: string; readonly bytes: Buffer; readonly record: SignedRecord } {
  const names = existsSync(evidenceDir) ? readdirSync(evidenceDir).filter((n) => !n.startsWith('.')) : [];
  if (names.length === 0)
    throw new ResumeError('EVIDENCE_MISSING', `--resume: no signed answer in the evidence directory the pause printed`);
  if (names.length > 1) throw new ResumeError('EVIDENCE_AMBIGUOUS', '--resume: more than one file in the evidence directory');
  const fileName = names[0] as string;
  const path = join(evidenceDir, fileName);
  const request = readArtifact(pendingPath, 'the pending request');
  const evidence = readArtifact(path, 'the evidence');
  const expectedKind = pending.request === 'reconciliation' ? ArtifactKind.RECONCILIATION : ArtifactKind.RELEASE;
  if (evidence.kind !== expectedKind)
    throw new ResumeError(
      'EVIDENCE_UNSIGNED',
      `--resume: the evidence is not the owner's signed ${pending.request} (it is ${evidence.kind.replace(/^pfsense-mcp\//, '')})`,
    );
  try {
    verifyArtifactSignature(evidence, pins);
  } catch (e) {
    if (e instanceof ArtifactVerificationError)
      throw new ResumeError(
        `EVIDENCE_${e.code}`,
        `--resume: the evidence is refused (${e.code}): it must be signed with the owner's reconciliation key`,
      );
    throw e;
  }
  const rp = (request as { payload: { contract_id?: unknown; state_version?: unknown } }).payload;
  const ep = (evidence as { payload: { contract_id?: unknown; state_version?: unknown; outcome?: unknown } }).payload;
  if (ep.contract_id !== rp.contract_id || ep.state_version !== rp.state_version)
    throw new ResumeError('EVIDENCE_OTHER_REQUEST', '--resume: the evidence answers another request');
  const outcome = ep.outcome === 'APPLIED' || ep.outcome === 'NOT_APPLIED' ? ep.outcome : null;
  return Object.freeze({
    fileName,
    bytes: readFileSync(path),
    record: Object.freeze({
      requestKind: request.kind,
      requestDigest: artifactDigestOf(request),
      signedKind: evidence.kind,
      signedDigest: artifactDigestOf(evidence),
      outcome,
    }),
  });
}

/** Puts the checked evidence into the subject inbox (0600, exclusive; the same bytes already there are fine). */
export function deliverToInbox(inbox: string, fileName: string, bytes: Buffer): void {
  const target = join(inbox, fileName);
  if (existsSync(target)) {
    if (!readFileSync(target).equals(bytes))
      throw new ResumeError('EVIDENCE_CONFLICT', '--resume: another file of that name is already in the inbox');
    return;
  }
  writeSecretFile(target, bytes);
  chmodSync(target, 0o600);
}
