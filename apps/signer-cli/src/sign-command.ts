import { join } from 'node:path';
import {
  ArtifactKind,
  artifactDigestOf,
  checkCurrentness,
  createConfirmationEvidence,
  createLabGateReceipt,
  createPlanAuthorizationFromRequest,
  createReconciliationEvidence,
  createReservationRelease,
  encodeArtifact,
} from '@pfsense-mcp/authorization';
import type { LabGateRequest, PendingRequest, SignedArtifact, SigningKey } from '@pfsense-mcp/authorization';
import { writeSecretFile } from '@pfsense-mcp/crypto';
import { isApproved, promptLine } from './approval.js';
import type { CliContext } from './cli-context.js';
import { ExitCode } from './exit-code.js';
import { withFileRefusal } from './file-refusal.js';
import { isGateRequest, reviewGateRequest } from './gate-request-review.js';
import type { GateRequestReview } from './gate-request-review.js';
import { loadVerifiedRequest, refuseOnVerification } from './load-verified-request.js';
import { assertSafeOutputDirectory } from './output-directory.js';
import { asciiJson } from './render-safe.js';
import { readArtifactFile } from './read-artifact-file.js';
import { renderGateReview } from './render-gate-review.js';
import { renderReview } from './render-review.js';
import { wrappedQuoted } from './review-lines.js';
import { readSigningKeyFor } from './role-key-file.js';
import { SignerError } from './signer-error.js';

function outcomeFor(request: PendingRequest, outcome: string | undefined): 'APPLIED' | 'NOT_APPLIED' | null {
  if (request.kind === ArtifactKind.RECONCILIATION_REQUEST) {
    if (outcome !== 'APPLIED' && outcome !== 'NOT_APPLIED') {
      throw new SignerError(
        ExitCode.USAGE,
        'USAGE',
        'a reconciliation needs --outcome APPLIED or --outcome NOT_APPLIED (what you observed)',
      );
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
  const id = p.authorization_id ?? p.confirmation_id ?? p.resolution_id ?? p.release_id ?? p.gate_id;
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
  if (args.file !== undefined && args.serverKey !== undefined) {
    const artifact = readArtifactFile(args.file, 'FILE');
    if (isGateRequest(artifact)) return signGate(ctx, artifact, reviewGateRequest(artifact, args.serverKey, ctx.now()));
  }
  const { request, review } = loadVerifiedRequest(args.file, args.serverKey, ctx.now());
  const outcome = outcomeFor(request, args.outcome);
  assertSafeOutputDirectory(args.out, false);
  const key = readSigningKeyFor(false, args.key);
  try {
    // The server's own request key must never sign an operator artifact (it would be refused anyway).
    if (key.keyId === review.server_key_id) {
      throw new SignerError(ExitCode.USAGE, 'SERVER_KEY_AS_SIGNER', '--key is the server request key; use an operator key');
    }
    if (!args.json) {
      ctx.stdout.write(renderReview(review, style, ctx.now(), { full: args.full, members: args.members }));
      if (outcome !== null) ctx.stdout.write(`  declared outcome ${style.bold(outcome)}\n`);
    }
    const approved = await approval(ctx, review.approve_prefix, key.keyId);
    if (!approved)
      throw new SignerError(ExitCode.NOT_APPROVED, 'APPROVAL_MISMATCH', 'not signed: the approval does not match the request digest shown');
    const issuedAt = ctx.now();
    // Approval may have taken a while: the request must still be current when it is signed.
    refuseOnVerification(() => checkCurrentness(request, issuedAt));
    const signed = signFor(request, key, issuedAt, outcome);
    return writeSigned(ctx, signed, review.request, review.request_digest, key.keyId);
  } finally {
    key.privateKey.fill(0);
  }
}

/** Explicit approval of the digest shown: --approve PREFIX, or typed at a terminal. */
async function approval(ctx: CliContext, prefix: string, keyId: string): Promise<boolean> {
  const { args, style } = ctx;
  let approved: boolean;
  if (args.approve !== undefined) {
    approved = isApproved(args.approve, prefix, false);
  } else if (ctx.interactive && !args.json) {
    const answer = await promptLine(ctx.stdin, ctx.stdout, `Sign with key ${keyId.slice(0, 16)}…? Type ${style.bold(prefix)} or "yes": `);
    approved = isApproved(answer, prefix, true);
  } else {
    throw new SignerError(
      ExitCode.NOT_APPROVED,
      'NO_APPROVAL',
      'not signed: no approval (run on a terminal, or pass --approve with the first 12 hex of the request digest shown by review)',
    );
  }
  return approved;
}

/** Writes the signed artifact by exclusive creation (0600) and reports it. */
function writeSigned(ctx: CliContext, signed: SignedArtifact, requestType: string, requestDigest: string, keyId: string): number {
  const { args, style } = ctx;
  const out = args.out as string;
  const text = encodeArtifact(signed);
  const path = join(out, `${requestType}-${idOf(signed)}.json`);
  withFileRefusal('--out', path, () => writeSecretFile(path, text));
  const digest = artifactDigestOf(signed);
  if (args.json) {
    ctx.stdout.write(
      `${asciiJson({ ok: true, kind: signed.kind, version: signed.version, file: path, artifact_digest: digest, request_digest: requestDigest, key_id: keyId, expires_at: signed.payload.expires_at })}\n`,
    );
  } else {
    ctx.stdout.write(
      `${style.green('signed')} ${signed.kind} v${signed.version} →\n${wrappedQuoted(path, 2)}\n  artifact digest\n    ${digest}\n`,
    );
  }
  return ExitCode.OK;
}

/** sign for a lab gate request: the same review → approval → one signature, with a lab-gate key only. */
async function signGate(ctx: CliContext, request: LabGateRequest, review: GateRequestReview): Promise<number> {
  const { args, style } = ctx;
  if (args.outcome !== undefined) throw new SignerError(ExitCode.USAGE, 'USAGE', '--outcome is only for reconciliation requests');
  assertSafeOutputDirectory(args.out as string, false);
  const key = readSigningKeyFor(true, args.key as string);
  try {
    if (key.keyId === review.server_key_id) {
      throw new SignerError(ExitCode.USAGE, 'SERVER_KEY_AS_SIGNER', '--key is the runner request key; use your lab-gate key');
    }
    if (!args.json) ctx.stdout.write(renderGateReview(review, style, ctx.now(), args.full));
    const approved = await approval(ctx, review.approve_prefix, key.keyId);
    if (!approved)
      throw new SignerError(ExitCode.NOT_APPROVED, 'APPROVAL_MISMATCH', 'not signed: the approval does not match the request digest shown');
    const issuedAt = ctx.now();
    refuseOnVerification(() => checkCurrentness(request, issuedAt));
    return writeSigned(ctx, createLabGateReceipt(request, key, { issuedAt }), 'lab-gate', review.request_digest, key.keyId);
  } finally {
    key.privateKey.fill(0);
  }
}
