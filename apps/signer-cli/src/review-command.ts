import type { CliContext } from './cli-context.js';
import { ExitCode } from './exit-code.js';
import { isGateRequest, reviewGateRequest } from './gate-request-review.js';
import { loadVerifiedRequest } from './load-verified-request.js';
import { readArtifactFile } from './read-artifact-file.js';
import { renderGateReview } from './render-gate-review.js';
import { SignerError } from './signer-error.js';
import { asciiJson } from './render-safe.js';
import { renderReview } from './render-review.js';

/** review FILE --server-key KEY [--full] [--members]: verify, recompute, show. Never signs. */
export function reviewCommand(ctx: CliContext): number {
  const now = ctx.now();
  if (ctx.args.file !== undefined && ctx.args.serverKey !== undefined) {
    const artifact = readArtifactFile(ctx.args.file, 'FILE');
    if (isGateRequest(artifact)) {
      const gate = reviewGateRequest(artifact, ctx.args.serverKey, now);
      if (ctx.args.json) ctx.stdout.write(`${asciiJson({ ok: true, verified: true, review: gate })}\n`);
      else {
        ctx.stdout.write(renderGateReview(gate, ctx.style, now, ctx.args.full));
        ctx.stdout.write(
          `To sign it: pfsense-mcp-signer sign FILE --key GATE --server-key KEY --out DIR\n           and approve with ${gate.approve_prefix}\n`,
        );
      }
      return ExitCode.OK;
    }
  } else if (ctx.args.file === undefined) {
    throw new SignerError(ExitCode.USAGE, 'USAGE', 'missing FILE; see --help');
  }
  const { review } = loadVerifiedRequest(ctx.args.file, ctx.args.serverKey, now);
  if (ctx.args.json) {
    ctx.stdout.write(`${asciiJson({ ok: true, verified: true, review })}\n`);
  } else {
    ctx.stdout.write(renderReview(review, ctx.style, now, { full: ctx.args.full, members: ctx.args.members }));
    ctx.stdout.write(
      `To sign it: pfsense-mcp-signer sign FILE --key KEY --server-key KEY --out DIR\n           and approve with ${review.approve_prefix}\n`,
    );
  }
  return ExitCode.OK;
}
