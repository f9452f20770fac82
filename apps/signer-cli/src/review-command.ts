import type { CliContext } from './cli-context.js';
import { ExitCode } from './exit-code.js';
import { isGateRequest, reviewGateRequest } from './gate-request-review.js';
import { loadVerifiedRequest } from './load-verified-request.js';
import { readArtifactFile } from './read-artifact-file.js';
import { renderGateReview } from './render-gate-review.js';
import { SignerError } from './signer-error.js';
import { asciiJson } from './render-safe.js';
import { renderReview } from './render-review.js';
import { approveCodeFor, readKeyFor } from './role-key-file.js';
import type { AnsweredRequest } from './role-key-file.js';

/**
 * The approval code for a review when --key/--keys is given (a key of another role is refused here, before
 * anything is shown); null without a key: the change is still shown, the code is not (docs/DESIGN.md §10).
 */
function codeFor(ctx: CliContext, request: AnsweredRequest, requestDigest: string): string | null {
  const key = readKeyFor(ctx.args, request);
  if (key === null) return null;
  try {
    return approveCodeFor(key, requestDigest);
  } finally {
    key.privateKey.fill(0);
  }
}

function howToSign(code: string | null, keyFlag: string): string {
  return code === null
    ? `To sign it: pfsense-mcp-signer sign FILE ${keyFlag} --server-key KEY --out DIR\n           (it shows the approval code to type)\n`
    : `To sign it: pfsense-mcp-signer sign FILE ${keyFlag} --server-key KEY --out DIR\n           and approve with ${code}\n`;
}

/** review FILE --server-key KEY [--key FILE | --keys DIR] [--full] [--members]: verify, recompute, show. Never signs. */
export function reviewCommand(ctx: CliContext): number {
  const now = ctx.now();
  if (ctx.args.file !== undefined && ctx.args.serverKey !== undefined) {
    const artifact = readArtifactFile(ctx.args.file, 'FILE');
    if (isGateRequest(artifact)) {
      const verified = reviewGateRequest(artifact, ctx.args.serverKey, now);
      const gate = Object.freeze({ ...verified, approve_prefix: codeFor(ctx, 'lab-gate', verified.request_digest) });
      if (ctx.args.json) ctx.stdout.write(`${asciiJson({ ok: true, verified: true, review: gate })}\n`);
      else {
        ctx.stdout.write(renderGateReview(gate, ctx.style, now, ctx.args.full));
        ctx.stdout.write(howToSign(gate.approve_prefix, '--key GATE'));
      }
      return ExitCode.OK;
    }
  } else if (ctx.args.file === undefined) {
    throw new SignerError(ExitCode.USAGE, 'USAGE', 'missing FILE; see --help');
  }
  const loaded = loadVerifiedRequest(ctx.args.file, ctx.args.serverKey, now);
  const review = Object.freeze({ ...loaded.review, approve_prefix: codeFor(ctx, loaded.review.request, loaded.review.request_digest) });
  if (ctx.args.json) {
    ctx.stdout.write(`${asciiJson({ ok: true, verified: true, review })}\n`);
  } else {
    ctx.stdout.write(renderReview(review, ctx.style, now, { full: ctx.args.full, members: ctx.args.members }));
    ctx.stdout.write(howToSign(review.approve_prefix, '--key KEY'));
  }
  return ExitCode.OK;
}
