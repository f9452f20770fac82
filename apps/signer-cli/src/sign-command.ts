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
  createRollbackAuthorization,
  encodeArtifact,
} from '@pfsense-mcp/authorization';
import type { LabGateRequest, PendingRequest, SignedArtifact, SigningKey } from '@pfsense-mcp/authorization';
import { APPROVE_CODE_LENGTH, writeSecretFile } from '@pfsense-mcp/crypto';
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
import { approveCodeFor, readKeyFor } from './role-key-file.js';
import type { AnsweredRequest, RoleKey } from './role-key-file.js';
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

export function signFor(
  request: PendingRequest,
  key: SigningKey,
  issuedAt: number,
  outcome: 'APPLIED' | 'NOT_APPLIED' | null,
): SignedArtifact {
  switch (request.kind) {
    case ArtifactKind.AUTHORIZATION_REQUEST:
      return createPlanAuthorizationFromRequest(request, key, { issuedAt });
    case ArtifactKind.CONFIRMATION_REQUEST:
      return createConfirmationEvidence(request, key, { issuedAt });
    case ArtifactKind.RECONCILIATION_REQUEST:
      return createReconciliationEvidence(request, key, { issuedAt, outcome: outcome ?? 'NOT_APPLIED' });
    case ArtifactKind.RELEASE_REQUEST:
      return createReservationRelease(request, key, { issuedAt });
    case ArtifactKind.ROLLBACK_REQUEST:
      return createRollbackAuthorization(request, key, { issuedAt });
  }
}

function idOf(a: SignedArtifact): string {
  const p = a.payload as unknown as Record<string, unknown>;
  const id = p.authorization_id ?? p.confirmation_id ?? p.resolution_id ?? p.release_id ?? p.rollback_authorization_id ?? p.gate_id;
  return typeof id === 'string' ? id : 'artifact';
}

/**
 * sign FILE (--key K | --keys DIR) --server-key S --out DIR [--approve CODE] [--outcome …]: everything review does,
 * then explicit approval with the code only the operator's key gives, then one signature, written by exclusive
 * creation (0600).
 */
export async function signCommand(ctx: CliContext): Promise<number> {
  const { args, style } = ctx;
  if (args.key === undefined && args.keys === undefined) {
    throw new SignerError(ExitCode.USAGE, 'USAGE', 'missing --key (your private key file) or --keys (the directory of your key files)');
  }
  if (args.out === undefined) throw new SignerError(ExitCode.USAGE, 'USAGE', 'missing --out DIR');
  if (args.file !== undefined && args.serverKey !== undefined) {
    const artifact = readArtifactFile(args.file, 'FILE');
    if (isGateRequest(artifact)) return signGate(ctx, artifact, reviewGateRequest(artifact, args.serverKey, ctx.now()));
  }
  const { request, review } = loadVerifiedRequest(args.file, args.serverKey, ctx.now());
  const outcome = outcomeFor(request, args.outcome);
  assertSafeOutputDirectory(args.out, false);
  const key = signingKeyFor(ctx, review.request, review.server_key_id, '--key is the server request key; use an operator key');
  try {
    const code = approveCodeFor(key, review.request_digest);
    if (!args.json) {
      ctx.stdout.write(renderReview({ ...review, approve_prefix: code }, style, ctx.now(), { full: args.full, members: args.members }));
      if (outcome !== null) ctx.stdout.write(`  declared outcome ${style.bold(outcome)}\n`);
    }
    await approval(ctx, code, review.request_digest, key.keyId);
    const issuedAt = ctx.now();
    // Approval may have taken a while: the request must still be current when it is signed.
    refuseOnVerification(() => checkCurrentness(request, issuedAt));
    const signed = signFor(request, key, issuedAt, outcome);
    return writeSigned(ctx, signed, review.request, review.request_digest, key.keyId);
  } finally {
    key.privateKey.fill(0);
  }
}

/**
 * The signing key of the role `request` needs, read before anything is shown or asked: a key of another role —
 * the server's own request key included — is refused (WRONG_ROLE_KEY). A key of the right role that is the
 * server's own key (the same seed filed under an operator role) is refused too: it would be refused anyway.
 */
export function signingKeyFor(ctx: CliContext, request: AnsweredRequest, serverKeyId: string, serverKeyMessage: string): RoleKey {
  const key = readKeyFor(ctx.args, request);
  if (key === null) throw new SignerError(ExitCode.USAGE, 'USAGE', 'missing --key or --keys');
  if (key.keyId === serverKeyId) {
    key.privateKey.fill(0);
    throw new SignerError(ExitCode.USAGE, 'SERVER_KEY_AS_SIGNER', serverKeyMessage);
  }
  return key;
}

/**
 * Explicit approval with the code shown: --approve CODE, or typed at a terminal (`approve` also reads it as a line
 * from a piped stdin: the code is what approves, whichever way it is typed). Only the code approves:
 * "yes" approves nothing, and the request digest's own prefix — which anyone holding the request can compute,
 * an assistant on the server host included — is refused by name (docs/DESIGN.md §10).
 */
export async function approval(
  ctx: CliContext,
  code: string,
  requestDigest: string,
  keyId: string,
  options: { readonly typedOnAnyInput?: boolean } = {},
): Promise<void> {
  const { args, style } = ctx;
  let answer: string;
  if (args.approve !== undefined) {
    answer = args.approve;
  } else if ((ctx.interactive && !args.json) || options.typedOnAnyInput === true) {
    // At a terminal the prompt is part of the review; from a pipe (or with --json) it goes to stderr, off the output.
    const atTerminal = ctx.interactive && !args.json;
    answer = await promptLine(
      ctx.stdin,
      atTerminal ? ctx.stdout : ctx.stderr,
      `Sign with key ${keyId.slice(0, 16)}…? Type the code ${style.bold(code)}: `,
      atTerminal,
    );
  } else {
    throw new SignerError(
      ExitCode.NOT_APPROVED,
      'NO_APPROVAL',
      'not signed: no approval (run on a terminal, or pass --approve with the approval code review shows with your key)',
    );
  }
  if (isApproved(answer, code)) return;
  if (answer === requestDigest.slice(0, APPROVE_CODE_LENGTH)) {
    throw new SignerError(
      ExitCode.NOT_APPROVED,
      'DIGEST_PREFIX',
      "not signed: that is the request digest's prefix, not the approval code (review or sign with your key shows the code)",
    );
  }
  throw new SignerError(ExitCode.NOT_APPROVED, 'APPROVAL_MISMATCH', 'not signed: the approval does not match the code shown');
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
  const key = signingKeyFor(ctx, 'lab-gate', review.server_key_id, '--key is the runner request key; use your lab-gate key');
  try {
    const code = approveCodeFor(key, review.request_digest);
    if (!args.json) ctx.stdout.write(renderGateReview({ ...review, approve_prefix: code }, style, ctx.now(), args.full));
    await approval(ctx, code, review.request_digest, key.keyId);
    const issuedAt = ctx.now();
    refuseOnVerification(() => checkCurrentness(request, issuedAt));
    return writeSigned(ctx, createLabGateReceipt(request, key, { issuedAt }), 'lab-gate', review.request_digest, key.keyId);
  } finally {
    key.privateKey.fill(0);
  }
}
