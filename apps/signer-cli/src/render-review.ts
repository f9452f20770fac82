import type { RequestReview } from './alias-request-review.js';
import { LABEL_WIDTH, Lines, idPieces, quoted, text } from './review-lines.js';
import type { Piece } from './review-lines.js';
import type { Style } from './terminal-style.js';

// The width lives with the line layout; re-exported for the renderers that import it from here.
export { REVIEW_WIDTH } from './review-lines.js';

/** Hex characters shown of each digest unless --full (the full values are under --full and in --json). */
export const DIGEST_SHOWN_LENGTH = 16;
/** Members listed one per line under --full (more: --members); --members lists every one, however many. */
export const MEMBERS_LISTED_MAX = 10;
/** The default review lists at most this many members, one row each; more are summarised (count and digest). */
export const MEMBERS_IN_DEFAULT = 3;

/**
 * Rows a value may take in the default review before it is cut (--full shows it whole). With these, the review of
 * an ordinary one-member change fits one 80×24 screen with the approve line and the prompt, and however long
 * the values, the alias, old → new and the approve line never scroll off (README "Review layout").
 */
const ROWS = Object.freeze({ appliance: 1, old: 2, new: 3, member: 1, observed: 2 });

export interface ReviewLayout {
  /** Every value whole and every digest in full, each on its own line (the default shows the request prefix only). */
  readonly full: boolean;
  /** Every member on its own line, however many. */
  readonly members: boolean;
}

function time(ms: number): string {
  return `${new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d{3}Z$/, ' UTC')}`;
}

function remaining(expiresAt: number, nowMs: number): string {
  const min = Math.floor((expiresAt - nowMs) / 60_000);
  return min >= 120 ? `in ${Math.floor(min / 60)} h` : `in ${min} min`;
}

const TITLES: Readonly<Record<RequestReview['request'], string>> = {
  authorization: 'AUTHORIZATION request — approve this change of one alias description',
  confirmation: 'CONFIRMATION request — allow the prepared contract to execute',
  reconciliation: 'RECONCILIATION request — declare what actually happened on the appliance',
  release: 'RESERVATION RELEASE request — release the alias held by a failed rollback',
};

const NEW_VALUE_LABEL = `${' '.repeat(LABEL_WIDTH - 3)}→`;

function shortDigest(hex: string): string {
  return `${hex.slice(0, DIGEST_SHOWN_LENGTH)}…`;
}

/** What ends a cut value: outside the value's quotes (a value's own quote is always escaped), naming the flag. */
function cutMarker(style: Style): Piece[] {
  return [...text('…'), ...text('  [cut: --full shows all]', style.dim)];
}

/** A value, cut to `rows` rows unless the layout shows values whole. */
function valueField(lines: Lines, label: string, value: readonly Piece[], rows: number, style: Style, layout: ReviewLayout): void {
  if (layout.full) lines.field(label, value);
  else lines.fieldCut(label, value, rows, cutMarker(style));
}

function renderMembers(lines: Lines, r: RequestReview, style: Style, layout: ReviewLayout): void {
  const count = r.alias.address.length;
  const max = layout.members ? Infinity : layout.full ? MEMBERS_LISTED_MAX : MEMBERS_IN_DEFAULT;
  const listed = count <= max;
  if (count === 0) {
    lines.field('members', text('none'));
    return;
  }
  lines.field('members', text(`${count}${listed ? '' : '   (too many to list here: --members lists them)'}`));
  // The member digest names a list that is not shown; beside a shown list it is one of the digests of --full.
  if (!listed || layout.full) lines.field('member digest', text(layout.full ? r.members_digest : shortDigest(r.members_digest)));
  if (!listed) return;
  r.alias.address.forEach((address, i) => {
    const member = [...quoted(address), ...text('  detail ', style.dim), ...quoted(r.alias.detail[i] ?? '')];
    if (layout.members) lines.field(`  #${i + 1}`, member);
    else valueField(lines, `  #${i + 1}`, member, ROWS.member, style, layout);
  });
}

function renderDigests(lines: Lines, r: RequestReview, style: Style, layout: ReviewLayout): void {
  // The signer recomputed every digest either way; the default shows only the request digest's prefix.
  if (layout.full) {
    lines.raw('  digests       recomputed from the facts shown');
    for (const [name, value] of Object.entries(r.digests)) {
      lines.raw(`    ${name}`);
      lines.raw(`      ${style.dim(value)}`);
    }
    lines.raw('  request digest');
    lines.raw(`      ${style.cyan(style.bold(r.approve_prefix))}${r.request_digest.slice(r.approve_prefix.length)}`);
  } else {
    lines.field('request', text(shortDigest(r.request_digest)));
  }
  lines.field(
    'approve with',
    text(r.approve_prefix, (s) => style.cyan(style.bold(s))),
  );
}

/**
 * Human rendering of a verified review, at most REVIEW_WIDTH columns per line (see README "Review layout").
 * Every string from the request passes through safeTokens and is quoted; digests and ids are hex or safe
 * tokens by construction. The default fits an ordinary change on one 80×24 screen; --full shows everything.
 */
export function renderReview(
  r: RequestReview,
  style: Style,
  nowMs: number,
  layout: ReviewLayout = { full: false, members: false },
): string {
  const lines = new Lines();
  lines.raw(style.bold(TITLES[r.request]));
  lines.raw(`  ${style.green('server signature verified')} (key ${r.server_key_id.slice(0, 16)}…); digests recomputed`);
  if (r.appliance !== null) {
    valueField(lines, 'appliance', quoted(r.appliance.base_url), ROWS.appliance, style, layout);
    const tlsAndId = [...text('TLS '), ...text(r.appliance.tls_mode), ...text('   id '), ...quoted(r.appliance.appliance_id)];
    valueField(lines, '', tlsAndId, ROWS.appliance, style, layout);
  }
  lines.field('alias', [...quoted(r.alias.name, style.bold), ...text('   type '), ...quoted(r.alias.type)]);
  renderMembers(lines, r, style, layout);
  valueField(lines, 'description', quoted(r.old_description), ROWS.old, style, layout);
  valueField(lines, NEW_VALUE_LABEL, quoted(r.new_description, style.yellow), ROWS.new, style, layout);
  if (r.observed !== null) {
    const seen = r.observed.description === null ? text('no single alias could be observed', style.red) : quoted(r.observed.description);
    valueField(lines, 'observed now', [...seen, ...text(`   locator ${r.observed.locator}`)], ROWS.observed, style, layout);
    if (r.config_history !== null) lines.prose(r.config_history.summary);
    lines.field('origin', text(`${r.origin ?? ''}   state version ${r.state_version ?? ''}`));
  }
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
  if (layout.full) lines.field('issued', text(time(r.issued_at)));
  lines.field('expires', text(`${time(r.expires_at)} (${remaining(r.expires_at, nowMs)})`));
  renderDigests(lines, r, style, layout);
  return lines.toString();
}
