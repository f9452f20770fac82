import {
  ArtifactKind,
  PENDING_REQUEST_KINDS,
  artifactDigestOf,
  checkAnswersThisServer,
  checkConfirmationBinding,
  checkCurrentness,
  checkPlanAuthorizationBinding,
  checkReconciliationBinding,
  checkReleaseBinding,
  verifyArtifactSignature,
  verifyPendingRequest,
  ARTIFACT_RULES,
} from '@pfsense-mcp/authorization';
import type { PendingRequest, SignedArtifact, SignedArtifactKind } from '@pfsense-mcp/authorization';
import { AuthorityError, PinnedAuthoritySet, isAuthorityRole } from '@pfsense-mcp/crypto';
import type { PinnedAuthority } from '@pfsense-mcp/crypto';
import { reviewPendingRequest } from './pending-request-review.js';
import type { CliContext } from './cli-context.js';
import { ExitCode } from './exit-code.js';
import { refuseOnVerification } from './load-verified-request.js';
import { readArtifactFile } from './read-artifact-file.js';
import { readPublicKeyInput } from './public-key-input.js';
import { asciiJson } from './render-safe.js';
import { SignerError } from './signer-error.js';

function pinnedSet(ctx: CliContext): PinnedAuthoritySet {
  const entries: PinnedAuthority[] = [];
  if (ctx.args.serverKey !== undefined) {
    const k = readPublicKeyInput(ctx.args.serverKey, '--server-key');
    entries.push({ keyId: k.keyId, publicKey: k.publicKey, role: 'server-request', active: true });
  }
  for (const pin of ctx.args.pins) {
    const eq = pin.indexOf('=');
    const role = pin.slice(0, eq);
    if (eq < 1 || !isAuthorityRole(role)) throw new SignerError(ExitCode.USAGE, 'USAGE', '--pin must be ROLE=KEY with a known role');
    const k = readPublicKeyInput(pin.slice(eq + 1), '--pin');
    entries.push({ keyId: k.keyId, publicKey: k.publicKey, role, active: true });
  }
  if (entries.length === 0) throw new SignerError(ExitCode.USAGE, 'USAGE', 'verify needs pinned keys: --server-key and/or --pin ROLE=KEY');
  try {
    return PinnedAuthoritySet.of(entries);
  } catch (e) {
    if (e instanceof AuthorityError) throw new SignerError(ExitCode.USAGE, e.code, 'the same key cannot be pinned twice or in two roles');
    throw e;
  }
}

/** The signed artifact must answer exactly this request (same bindings, no later expiry). */
function checkAnswers(signed: SignedArtifact, request: PendingRequest): void {
  const mismatch = () => {
    throw new SignerError(ExitCode.ARTIFACT_REFUSED, 'BINDING_MISMATCH', 'the artifact does not answer this request');
  };
  if (signed.payload.expires_at > request.payload.expires_at) mismatch();
  if (signed.kind === ArtifactKind.PLAN_AUTHORIZATION && request.kind === ArtifactKind.AUTHORIZATION_REQUEST) {
    const r = request.payload;
    checkPlanAuthorizationBinding(signed, {
      planDigest: r.plan_digest,
      stepId: r.step_id,
      executionIntentDigest: r.execution_intent_digest,
    });
    checkAnswersThisServer(signed, [r.key_id]);
  } else if (signed.kind === ArtifactKind.CONFIRMATION && request.kind === ArtifactKind.CONFIRMATION_REQUEST) {
    const r = request.payload;
    checkConfirmationBinding(signed, {
      contractId: r.contract_id,
      operationId: r.operation_id,
      intentDigest: r.intent_digest,
      executionIntentDigest: r.execution_intent_digest,
      targetFingerprint: r.target_fingerprint,
    });
    checkAnswersThisServer(signed, [r.key_id]);
  } else if (signed.kind === ArtifactKind.RECONCILIATION && request.kind === ArtifactKind.RECONCILIATION_REQUEST) {
    const r = request.payload;
    checkReconciliationBinding(signed, {
      contractId: r.contract_id,
      operationId: r.operation_id,
      stateVersion: r.state_version,
      origin: r.origin,
    });
    if (signed.payload.observed_fingerprint !== r.observed_fingerprint || signed.payload.observed_locator !== r.observed_locator)
      mismatch();
  } else if (signed.kind === ArtifactKind.RELEASE && request.kind === ArtifactKind.RELEASE_REQUEST) {
    const r = request.payload;
    checkReleaseBinding(signed, { contractId: r.contract_id, operationId: r.operation_id, stateVersion: r.state_version });
  } else if (signed.kind === ArtifactKind.ROLLBACK_AUTHORIZATION && request.kind === ArtifactKind.ROLLBACK_REQUEST) {
    const p = signed.payload;
    const r = request.payload;
    if (
      p.contract_id !== r.contract_id ||
      p.operation_id !== r.operation_id ||
      p.state_version !== r.state_version ||
      p.verified_target_fingerprint !== r.verified_target_fingerprint ||
      p.request_digest !== artifactDigestOf(request)
    )
      mismatch();
  } else {
    mismatch();
  }
}

/** verify FILE with the pinned keys given: signature (role from the kind), currentness, digests, binding. */
export function verifyCommand(ctx: CliContext): number {
  if (ctx.args.file === undefined) throw new SignerError(ExitCode.USAGE, 'USAGE', 'missing FILE; see --help');
  const pinned = pinnedSet(ctx);
  const now = ctx.now();
  const artifact = readArtifactFile(ctx.args.file, 'FILE');
  if (artifact.kind === ArtifactKind.PREPARED_EXECUTION_INTENT) {
    throw new SignerError(ExitCode.ARTIFACT_REFUSED, 'WRONG_KIND', 'a prepared intent is not a signed artifact');
  }
  const isRequest = PENDING_REQUEST_KINDS.has(artifact.kind as SignedArtifactKind);
  if (isRequest) {
    const request = refuseOnVerification(() => verifyPendingRequest(artifact, { serverAuthorities: pinned, nowMs: now }));
    reviewPendingRequest(request);
  } else {
    refuseOnVerification(() => verifyArtifactSignature(artifact, pinned));
    refuseOnVerification(() => checkCurrentness(artifact, now));
  }
  if (ctx.args.request !== undefined) {
    if (isRequest) throw new SignerError(ExitCode.USAGE, 'USAGE', '--request is for checking a signed artifact against its request');
    const req = readArtifactFile(ctx.args.request, '--request');
    const request = refuseOnVerification(() => verifyPendingRequest(req, { serverAuthorities: pinned, nowMs: now }));
    reviewPendingRequest(request);
    refuseOnVerification(() => checkAnswers(artifact, request));
  }
  const role = ARTIFACT_RULES[artifact.kind].role;
  const result = {
    ok: true,
    valid: true,
    kind: artifact.kind,
    version: artifact.version,
    role,
    key_id: artifact.payload.key_id,
    issued_at: artifact.payload.issued_at,
    expires_at: artifact.payload.expires_at,
    artifact_digest: artifactDigestOf(artifact),
    answers_request: ctx.args.request !== undefined,
  };
  if (ctx.args.json) ctx.stdout.write(`${asciiJson(result)}\n`);
  else {
    ctx.stdout.write(
      `${ctx.style.green('valid')} ${artifact.kind} v${artifact.version}, signed by ${role} key ${artifact.payload.key_id.slice(0, 16)}…, expires ${new Date(artifact.payload.expires_at).toISOString()}${result.answers_request ? ', answers the request given' : ''}\n  artifact digest ${result.artifact_digest}\n`,
    );
  }
  return ExitCode.OK;
}
