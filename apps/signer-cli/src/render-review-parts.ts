// The parts every pending-request review is drawn with, whichever capability's change it shows.
import type { RequestReviewBase, RequestType } from './request-review-base.js';
import { idPieces, quoted, text } from './review-lines.js';
import type { Lines, Piece } from './review-lines.js';
import type { Style } from './terminal-style.js';

// The width lives with the line layout; re-exported for the renderers that import it from here.
export { REVIEW_WIDTH } from './review-lines.js';

/** Hex characters shown of each digest unless --full (the full values are under --full and in --json). */
export const DIGEST_SHOWN_LENGTH = 16;

/** Rows the appliance's URL and its TLS/id line may each take in the default review (--full shows them whole). */
const APPLIANCE_ROWS = 1;

export interface ReviewLayout {
  /** Every value whole and every digest in full, each on its own line (the default shows the request prefix only). */
  readonly full: boolean;
  /** Every member on its own line, however many. */
  readonly members: boolean;
}

/** The review's first line: what answering the request does (an authorization names the change it approves). */
export function reviewTitle(request: RequestType, change: string): string {
  switch (request) {
    case 'authorization':
      return `AUTHORIZATION request — approve this change of ${change}`;
    case 'confirmation':
      return 'CONFIRMATION request — allow the prepared contract to execute';
    case 'reconciliation':
      return 'RECONCILIATION request — declare what actually happened on the appliance';
    case 'release':
      return 'RESERVATION RELEASE request — release the alias held by a failed rollback';
    case 'rollback':
      return `ROLLBACK request — undo this verified change of ${change}`;
  }
}

export function reviewTime(ms: number): string {
  return `${new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d{3}Z$/, ' UTC')}`;
}

function remaining(expiresAt: number, nowMs: number): string {
  const min = Math.floor((expiresAt - nowMs) / 60_000);
  return min >= 120 ? `in ${Math.floor(min / 60)} h` : `in ${min} min`;
}

export function shortDigest(hex: string): string {
  return `${hex.slice(0, DIGEST_SHOWN_LENGTH)}…`;
}

/** What ends a cut value: outside the value's quotes (a value's own quote is always escaped), naming the flag. */
function cutMarker(style: Style): Piece[] {
  return [...text('…'), ...text('  [cut: --full shows all]', style.dim)];
}

/** A value, cut to `rows` rows unless the layout shows values whole. */
export function valueField(lines: Lines, label: string, value: readonly Piece[], rows: number, style: Style, layout: ReviewLayout): void {
  if (layout.full) lines.field(label, value);
  else lines.fieldCut(label, value, rows, cutMarker(style));
}

/** The title, the verified server signature and the appliance the request is bound to. */
export function renderReviewHead(lines: Lines, title: string, r: RequestReviewBase, style: Style, layout: ReviewLayout): void {
  lines.raw(style.bold(title));
  lines.raw(`  ${style.green('server signature verified')} (key ${r.server_key_id.slice(0, 16)}…); digests recomputed`);
  if (r.appliance !== null) {
    valueField(lines, 'appliance', quoted(r.appliance.base_url), APPLIANCE_ROWS, style, layout);
    const tlsAndId = [...text('TLS '), ...text(r.appliance.tls_mode), ...text('   id '), ...quoted(r.appliance.appliance_id)];
    valueField(lines, '', tlsAndId, APPLIANCE_ROWS, style, layout);
  }
}

function renderDigests(lines: Lines, r: RequestReviewBase, style: Style, layout: ReviewLayout): void {
  // The signer recomputed every digest either way; the default shows only the request digest's prefix.
  if (layout.full) {
    lines.raw('  digests       recomputed from the facts shown');
    for (const [name, value] of Object.entries(r.digests)) {
      lines.raw(`    ${name}`);
      lines.raw(`      ${style.dim(value)}`);
    }
    lines.raw('  request digest');
    lines.raw(`      ${r.request_digest}`);
  } else {
    lines.field('request', text(shortDigest(r.request_digest)));
  }
  lines.field('approve with', approveWith(r, style));
}

/** The ids, the request's lifetime, the digests and the approval code: the end of every review. */
export function renderReviewTail(lines: Lines, r: RequestReviewBase, style: Style, nowMs: number, layout: ReviewLayout): void {
  // Ids whole under --full (on their own line when too long); else one row, cut with `…` like a digest.
  const id = (label: string, value: string): void => {
    if (layout.full) lines.fieldOrOwnLine(label, idPieces(value));
    else lines.fieldCut(label, idPieces(value), 1, text('…'));
  };
  id('operation', r.operation_id);
  if (r.contract_id !== null) id('contract', r.contract_id);
  if (r.step_id !== null) id('step', r.step_id);
  if (r.risk_class !== null) lines.field('risk', text(r.risk_class));
  if (r.request === 'release' && r.state_version !== null) lines.field('state version', text(String(r.state_version)));
  if (layout.full) lines.field('issued', text(reviewTime(r.issued_at)));
  lines.field('expires', text(`${reviewTime(r.expires_at)} (${remaining(r.expires_at, nowMs)})`));
  renderDigests(lines, r, style, layout);
}

/** What the review says instead of the code when no key was given (fits the value column for every role). */
export function approveNeedsKey(role: string): string {
  return `needs your ${role} key (--key or --keys)`;
}

/** The approval code, or — without the operator's key — what is needed to see it (docs/DESIGN.md §10). */
export function approveWith(r: { approve_prefix: string | null; key_role: string }, style: Style): ReturnType<typeof text> {
  return r.approve_prefix === null
    ? text(approveNeedsKey(r.key_role), style.yellow)
    : text(r.approve_prefix, (s) => style.cyan(style.bold(s)));
}
