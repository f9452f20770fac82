import { lstatSync, readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import {
  ArtifactKind,
  EXCHANGE_ANSWERS_FOLDER,
  EXCHANGE_REQUESTS_FOLDER,
  artifactDigestOf,
  checkCurrentness,
  encodeArtifact,
} from '@pfsense-mcp/authorization';
import type { PendingRequest } from '@pfsense-mcp/authorization';
import { APPROVE_CODE_LENGTH, writeSecretFile } from '@pfsense-mcp/crypto';
import type { RequestReview } from './pending-request-review.js';
import type { CliContext } from './cli-context.js';
import { refuseKeysInExchange } from './exchange-root.js';
import { ExitCode } from './exit-code.js';
import { withFileRefusal } from './file-refusal.js';
import { loadVerifiedRequest, refuseOnVerification } from './load-verified-request.js';
import { assertSafeOutputDirectory } from './output-directory.js';
import { asciiJson, renderSafe } from './render-safe.js';
import { renderReview } from './render-review.js';
import { wrappedQuoted } from './review-lines.js';
import { approveCodeFor } from './role-key-file.js';
import { approval, signFor, signingKeyFor } from './sign-command.js';
import { SignerError } from './signer-error.js';

/** Requests looked at in one folder at most (a folder larger than this is refused, not half-read). */
const MAX_REQUESTS = 1000;

/** The kinds `approve` answers; reconciliation and release keep `sign` with its explicit --outcome. */
const APPROVABLE: ReadonlySet<string> = new Set([
  ArtifactKind.AUTHORIZATION_REQUEST,
  ArtifactKind.CONFIRMATION_REQUEST,
  ArtifactKind.ROLLBACK_REQUEST,
]);

interface Candidate {
  readonly file: string;
  readonly answer: string;
  readonly request: PendingRequest;
  readonly review: RequestReview;
}

/** The answer file of a request: `<name without .json>.signed.json` in `outDir`. */
function answerPath(file: string, outDir: string): string {
  return join(outDir, `${basename(file, '.json')}.signed.json`);
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The request files PATH names, and where their answers go (sibling answers/ of a requests/ folder, else --out). */
function requestFiles(path: string, out: string | undefined): { files: readonly string[]; outDir: string; folder: boolean } {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    throw new SignerError(ExitCode.FILE_REFUSED, 'NOT_FOUND', 'PATH: does not exist');
  }
  if (st.isSymbolicLink()) throw new SignerError(ExitCode.FILE_REFUSED, 'SYMLINK', 'PATH: must not be a symbolic link');
  const folder = st.isDirectory();
  const parent = folder ? resolve(path) : dirname(resolve(path));
  const inRequests = basename(parent) === EXCHANGE_REQUESTS_FOLDER;
  const outDir = out ?? (inRequests ? join(dirname(parent), EXCHANGE_ANSWERS_FOLDER) : undefined);
  if (outDir === undefined) {
    throw new SignerError(
      ExitCode.USAGE,
      'USAGE',
      'missing --out DIR (only a request in a requests/ folder is answered into its sibling answers/)',
    );
  }
  if (!folder) return { files: [path], outDir, folder };
  const names = readdirSync(path)
    .filter((n) => n.endsWith('.json'))
    .sort();
  if (names.length > MAX_REQUESTS) {
    throw new SignerError(ExitCode.FILE_REFUSED, 'TOO_MANY_REQUESTS', `PATH: holds more than ${MAX_REQUESTS} request files`);
  }
  return { files: names.map((n) => join(path, n)), outDir, folder };
}

/** Each request not yet answered, verified as `review` verifies it; in a folder, one that fails is reported and passed over. */
function candidates(ctx: CliContext, files: readonly string[], outDir: string, folder: boolean): Candidate[] {
  const found: Candidate[] = [];
  for (const file of files) {
    const answer = answerPath(file, outDir);
    if (exists(answer)) continue;
    try {
      const { request, review } = loadVerifiedRequest(file, ctx.args.serverKey, ctx.now());
      if (!APPROVABLE.has(request.kind)) {
        throw new SignerError(
          ExitCode.USAGE,
          'NOT_APPROVABLE',
          `${renderSafe(basename(file))}: approve answers authorization and confirmation requests; sign it with --outcome`,
        );
      }
      found.push({ file, answer, request, review });
    } catch (e) {
      if (!folder || !(e instanceof SignerError)) throw e;
      ctx.stderr.write(`pfsense-mcp-signer: passed over ${renderSafe(basename(file))}: ${e.message} (${e.code})\n`);
    }
  }
  // Oldest first: the order the server asked in (its signed issued_at).
  return found.sort((a, b) => a.request.payload.issued_at - b.request.payload.issued_at || a.file.localeCompare(b.file));
}

/**
 * approve PATH --keys KEYDIR --server-key KEY [--out DIR] [--approve CODE] [--json]: for each authorization or
 * confirmation request not yet answered, oldest first, the review `sign` shows, the approval code to type, and the
 * signed answer — with the key of the role the request needs, found in KEYDIR. --approve CODE answers exactly the
 * one request whose code it is.
 */
export async function approveCommand(ctx: CliContext): Promise<number> {
  const { args } = ctx;
  if (args.file === undefined) throw new SignerError(ExitCode.USAGE, 'USAGE', 'missing PATH (a request file or a requests/ folder)');
  if (args.keys === undefined) throw new SignerError(ExitCode.USAGE, 'USAGE', 'missing --keys KEYDIR (the directory of your key files)');
  if (args.key !== undefined) throw new SignerError(ExitCode.USAGE, 'USAGE', 'approve takes --keys KEYDIR, not --key');
  if (args.serverKey === undefined) throw new SignerError(ExitCode.USAGE, 'USAGE', 'missing --server-key (the pinned server public key)');
  if (args.outcome !== undefined) throw new SignerError(ExitCode.USAGE, 'USAGE', '--outcome is for sign (reconciliation requests)');
  refuseKeysInExchange(args.keys, '--keys');
  const { files, outDir, folder } = requestFiles(args.file, args.out);
  assertSafeOutputDirectory(outDir, false);
  const pending = candidates(ctx, files, outDir, folder);
  const written: Record<string, unknown>[] = [];
  let matched = false;
  for (const c of pending) {
    const key = signingKeyFor(ctx, c.review.request, c.review.server_key_id, '--keys holds the server request key; use operator keys');
    try {
      const code = approveCodeFor(key, c.review.request_digest);
      // --approve CODE answers exactly the request of that code; every other one is left for later.
      if (args.approve !== undefined && args.approve !== code) continue;
      matched = true;
      if (!args.json) {
        ctx.stdout.write(`${wrappedQuoted(c.file, 0)}\n`);
        ctx.stdout.write(
          renderReview({ ...c.review, approve_prefix: code }, ctx.style, ctx.now(), { full: args.full, members: args.members }),
        );
      }
      await approval(ctx, code, c.review.request_digest, key.keyId, { typedOnAnyInput: true });
      const issuedAt = ctx.now();
      refuseOnVerification(() => checkCurrentness(c.request, issuedAt));
      const signed = signFor(c.request, key, issuedAt, null);
      withFileRefusal('answer', c.answer, () => writeSecretFile(c.answer, encodeArtifact(signed)));
      const digest = artifactDigestOf(signed);
      written.push({ request: c.file, file: c.answer, kind: signed.kind, artifact_digest: digest, key_id: key.keyId });
      if (!args.json) ctx.stdout.write(`${ctx.style.green('signed')} ${signed.kind} →\n${wrappedQuoted(c.answer, 2)}\n`);
    } finally {
      key.privateKey.fill(0);
    }
  }
  if (args.approve !== undefined && !matched) {
    const digestPrefix = pending.some((c) => c.review.request_digest.slice(0, APPROVE_CODE_LENGTH) === args.approve);
    throw digestPrefix
      ? new SignerError(
          ExitCode.NOT_APPROVED,
          'DIGEST_PREFIX',
          "not signed: that is the request digest's prefix, not the approval code (review or approve with your key shows the code)",
        )
      : new SignerError(ExitCode.NOT_APPROVED, 'APPROVAL_MISMATCH', 'not signed: the approval matches no pending request');
  }
  if (args.json) ctx.stdout.write(`${asciiJson({ ok: true, written })}\n`);
  else if (pending.length === 0) ctx.stdout.write('nothing to approve: every request here is answered\n');
  return ExitCode.OK;
}
