import type { RequestReview } from './alias-request-review.js';
import { reviewLookAlikeNotes } from './look-alike.js';
import { LABEL_WIDTH, Lines, idPieces, quoted, text } from './review-lines.js';
import type { Style } from './terminal-style.js';

// The width lives with the line layout; re-exported for the renderers that import it from here.
export { REVIEW_WIDTH } from './review-lines.js';

/** Hex characters shown of each digest unless --full (the full values are under --full and in --json). */
export const DIGEST_SHOWN_LENGTH = 16;
/** Members listed one per line; a larger alias is summarised (count and digest), listed under --members. */
export const MEMBERS_LISTED_MAX = 10;

export interface ReviewLayout {
  /** Every digest in full, each on its own line. */
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

function renderMembers(lines: Lines, r: RequestReview, style: Style, layout: ReviewLayout): void {
  const count = r.alias.address.length;
  const listed = count <= MEMBERS_LISTED_MAX || layout.members;
  if (count === 0) {
    lines.field('members', text('none'));
    return;
  }
  lines.field('members', text(`${count}${listed ? '' : '   (too many to list here: --members lists them)'}`));
  lines.field('member digest', text(layout.full ? r.members_digest : shortDigest(r.members_digest)));
  if (!listed) return;
  r.alias.address.forEach((address, i) => {
    lines.field(`  #${i + 1}`, [...quoted(address), ...text('  detail ', style.dim), ...quoted(r.alias.detail[i] ?? '')]);
  });
}

function renderDigests(lines: Lines, r: RequestReview, style: Style, layout: ReviewLayout): void {
  lines.raw(
    `  digests       ${layout.full ? 'recomputed from the facts shown' : `first ${DIGEST_SHOWN_LENGTH} hex of each; --full shows all 64`}`,
  );
  for (const [name, value] of Object.entries(r.digests)) {
    if (layout.full) {
      lines.raw(`    ${name}`);
      lines.raw(`      ${style.dim(value)}`);
    } else {
      lines.raw(`    ${name.padEnd(26)} ${style.dim(shortDigest(value))}`);
    }
  }
  if (layout.full) {
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
 * tokens by construction.
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
    lines.field('appliance', quoted(r.appliance.base_url));
    lines.field('', [...text('TLS '), ...text(r.appliance.tls_mode), ...text('   id '), ...quoted(r.appliance.appliance_id)]);
  }
  lines.field('alias', [...quoted(r.alias.name, style.bold), ...text('   type '), ...quoted(r.alias.type)]);
  renderMembers(lines, r, style, layout);
  lines.field('description', quoted(r.old_description));
  lines.field(NEW_VALUE_LABEL, quoted(r.new_description, style.yellow));
  const lookAlikes = reviewLookAlikeNotes(
    {
      oldDescription: r.old_description,
      newDescription: r.new_description,
      observedDescription: r.observed?.description ?? null,
      aliasType: r.alias.type,
      members: r.alias.address.map((address, i) => ({ address, detail: r.alias.detail[i] ?? '' })),
      appliance: r.appliance === null ? null : { baseUrl: r.appliance.base_url, applianceId: r.appliance.appliance_id },
    },
    layout.full,
  );
  for (const note of lookAlikes) lines.prose(note);
  if (r.observed !== null) {
    const seen = r.observed.description === null ? text('no single alias could be observed', style.red) : quoted(r.observed.description);
    lines.field('observed now', [...seen, ...text(`   locator ${r.observed.locator}`)]);
    if (r.config_history !== null) lines.prose(r.config_history.summary);
    lines.field('origin', text(`${r.origin ?? ''}   state version ${r.state_version ?? ''}`));
  }
  lines.fieldOrOwnLine('operation', idPieces(r.operation_id));
  if (r.contract_id !== null) lines.fieldOrOwnLine('contract', idPieces(r.contract_id));
  if (r.step_id !== null) lines.fieldOrOwnLine('step', idPieces(r.step_id));
  if (r.risk_class !== null) lines.field('risk', text(r.risk_class));
  if (r.request === 'release' && r.state_version !== null) lines.field('state version', text(String(r.state_version)));
  lines.field('issued', text(time(r.issued_at)));
  lines.field('expires', text(`${time(r.expires_at)} (${remaining(r.expires_at, nowMs)})`));
  renderDigests(lines, r, style, layout);
  return lines.toString();
}
