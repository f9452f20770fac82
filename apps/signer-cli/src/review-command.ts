import type { CliContext } from './cli-context.js';
import { ExitCode } from './exit-code.js';
import { loadVerifiedRequest } from './load-verified-request.js';
import { asciiJson } from './render-safe.js';
import { renderReview } from './render-review.js';

/** review FILE --server-key KEY [--full] [--members]: verify, recompute, show. Never signs. */
export function reviewCommand(ctx: CliContext): number {
  const now = ctx.now();
  const { review } = loadVerifiedRequest(ctx.args.file, ctx.args.serverKey, now);
  if (ctx.args.json) {
    ctx.stdout.write(`${asciiJson({ ok: true, verified: true, review })}\n`);
  } else {
    ctx.stdout.write(renderReview(review, ctx.style, now, { full: ctx.args.full, members: ctx.args.members }));
    ctx.stdout.write(`To sign it: pfsense-mcp-signer sign FILE --key KEY --server-key KEY --out DIR\n           and approve with ${review.approve_prefix}\n`);
  }
  return ExitCode.OK;
}
