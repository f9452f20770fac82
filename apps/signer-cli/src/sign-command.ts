import { join } from 'node:path';
import {
  ArtifactKind,
  artifactDigestOf,
  checkCurrentness,
  createConfirmationEvidence,
  createPlanAuthorizationFromRequest,
  createReconciliationEvidence,
  createReservationRelease,
  encodeArtifact,
} from '@pfsense-mcp/authorization';
import type { PendingRequest, SignedArtifact, SigningKey } from '@pfsense-mcp/authorization';
import { readEd25519PrivateKeyFile, writeSecretFile } from '@pfsense-mcp/crypto';
import { isApproved, promptLine } from './approval.js';
import type { CliContext } from './cli-context.js';
import { ExitCode } from './exit-code.js';
import { withFileRefusal } from './file-refusal.js';
import { loadVerifiedRequest, refuseOnVerification } from './load-verified-request.js';
import { assertSafeOutputDirectory } from './output-directory.js';
import { asciiJson, renderSafe } from './render-safe.js';
import { renderReview } from './render-review.js';
import { SignerError } from './signer-error.js';

function outcomeFor(request: PendingRequest, outcome: string | undefined): 'APPLIED' | 'NOT_APPLIED' | null {
  if (request.kind === ArtifactKind.RECONCILIATION_REQUEST) {
    if (outcome !== 'APPLIED' && outcome !== 'NOT_APPLIED') {
      throw new SignerError(ExitCode.USAGE, 'USAGE', 'a reconciliation needs --outcome APPLIED or --outcome NOT_APPLIED (what you observed)');
    }
    return outcome;
  }
  if (outcome !== undefined) throw new SignerError(ExitCode.USAGE, 'USAGE', '--outcome is only for reconciliation requests');
  return null;
}

function signFor(request: PendingRequest, key: SigningKey, issuedAt: number, outcome: 'APPLIED' | 'NOT_APPLIED' | null): SignedArtifact {
  switch (request.kind) {
    case ArtifactKind.AUTHORIZATION_REQUEST:
      return createPlanAuthorizationFromRequest(request, key, { issuedAt });
    case ArtifactKind.CONFIRMATION_REQUEST:
      return createConfirmationEvidence(request, key, { issuedAt });
    case ArtifactKind.RECONCILIATION_REQUEST:
      return createReconciliationEvidence(request, key, { issuedAt, outcome: outcome ?? 'NOT_APPLIED' });
    case ArtifactKind.RELEASE_REQUEST:
      return createReservationRelease(request, key, { issuedAt });
  }
}

function idOf(a: SignedArtifact): string {
  const p = a.payload as unknown as Record<string, unknown>;
  const id = p.authorization_id ?? p.confirmation_id ?? p.resolution_id ?? p.release_id;
  return typeof id === 'string' ? id : 'artifact';
}

/**
 * sign FILE --key K --server-key S --out DIR [--approve PREFIX] [--outcome …]: everything review does, then
 * explicit approval of the digest shown, then one signature, written by exclusive creation (0600).
 */
export async function signCommand(ctx: CliContext): Promise<number> {
  const { args, style } = ctx;
  if (args.key === undefined) throw new SignerError(ExitCode.USAGE, 'USAGE', 'missing --key (your private key file)');
  if (args.out === undefined) throw new SignerError(ExitCode.USAGE, 'USAGE', 'missing --out DIR');
  const { request, review } = loadVerifiedRequest(args.file, args.serverKey, ctx.now());
  const outcome = outcomeFor(request, args.outcome);
  assertSafeOutputDirectory(args.out, false);
  const key = withFileRefusal('--key', args.key, () => readEd25519PrivateKeyFile(args.key as string));
  try {
    // The server's own request key must never sign an operator artifact (it would be refused anyway).
    if (key.keyId === review.server_key_id) {
      throw new SignerError(ExitCode.USAGE, 'SERVER_KEY_AS_SIGNER', '--key is the server request key; use an operator key');
    }
    if (!args.json) {
      ctx.stdout.write(renderReview(review, style, ctx.now(), { full: args.full, members: args.members }));
      if (outcome !== null) ctx.stdout.write(`  declared outcome ${style.bold(outcome)}\n`);
    }
    let approved: boolean;
    if (args.approve !== undefined) {
      approved = isApproved(args.approve, review.approve_prefix, false);
    } else if (ctx.interactive && !args.json) {
      const answer = await promptLine(
        ctx.stdin,
        ctx.stdout,
        `Sign with key ${key.keyId.slice(0, 16)}…? Type ${style.bold(review.approve_prefix)} or "yes": `,
      );
      approved = isApproved(answer, review.approve_prefix, true);
    } else {
      throw new SignerError(
        ExitCode.NOT_APPROVED,
        'NO_APPROVAL',
        'not signed: no approval (run on a terminal, or pass --approve with the first 12 hex of the request digest shown by review)',
      );
    }
    if (!approved) throw new SignerError(ExitCode.NOT_APPROVED, 'APPROVAL_MISMATCH', 'not signed: the approval does not match the request digest shown');
    const issuedAt = ctx.now();
    // Approval may have taken a while: the request must still be current when it is signed.
    refuseOnVerification(() => checkCurrentness(request, issuedAt));
    const signed = signFor(request, key, issuedAt, outcome);
    const text = encodeArtifact(signed);
    const path = join(args.out, `${review.request}-${idOf(signed)}.json`);
    withFileRefusal('--out', path, () => writeSecretFile(path, text));
    const digest = artifactDigestOf(signed);
    if (args.json) {
      ctx.stdout.write(
        `${asciiJson({ ok: true, kind: signed.kind, version: signed.version, file: path, artifact_digest: digest, request_digest: review.request_digest, key_id: key.keyId, expires_at: signed.payload.expires_at })}\n`,
      );
    } else {
      ctx.stdout.write(`${style.green('signed')} ${signed.kind} v${signed.version} →\n  "${renderSafe(path)}"\n  artifact digest\n    ${digest}\n`);
    }
    return ExitCode.OK;
  } finally {
    key.privateKey.fill(0);
  }
}
