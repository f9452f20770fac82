import type { AliasDescriptionReview } from './alias-request-review.js';
import { reviewLookAlikeNotes } from './look-alike.js';
import { isAliasEntriesRequestReview } from './pending-request-review.js';
import type { RequestReview } from './pending-request-review.js';
import { renderEntriesReview } from './render-entries-review.js';
import { renderReviewHead, renderReviewTail, reviewTitle, shortDigest, valueField } from './render-review-parts.js';
import type { ReviewLayout } from './render-review-parts.js';
import { LABEL_WIDTH, Lines, quoted, text } from './review-lines.js';
import type { Style } from './terminal-style.js';

/** Members listed one per line under --full (more: --members); --members lists every one, however many. */
export const MEMBERS_LISTED_MAX = 10;
/** The default review lists at most this many members, one row each; more are summarised (count and digest). */
export const MEMBERS_IN_DEFAULT = 3;

/**
 * Rows a value may take in the default review before it is cut (--full shows it whole). With these, the review of
 * an ordinary one-member change fits one 80×24 screen with the approve line and the prompt, and however long
 * the values, the alias, old → new and the approve line never scroll off (README "Review layout").
 */
const ROWS = Object.freeze({ old: 2, new: 3, member: 1, observed: 2 });

const NEW_VALUE_LABEL = `${' '.repeat(LABEL_WIDTH - 3)}→`;

function renderMembers(lines: Lines, r: AliasDescriptionReview, style: Style, layout: ReviewLayout): void {
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
  if (isAliasEntriesRequestReview(r)) return renderEntriesReview(r, style, nowMs, layout);
  const lines = new Lines();
  renderReviewHead(lines, reviewTitle(r.request, 'one alias description'), r, style, layout);
  lines.field('alias', [...quoted(r.alias.name, style.bold), ...text('   type '), ...quoted(r.alias.type)]);
  renderMembers(lines, r, style, layout);
  valueField(lines, 'description', quoted(r.old_description), ROWS.old, style, layout);
  valueField(lines, NEW_VALUE_LABEL, quoted(r.new_description, style.yellow), ROWS.new, style, layout);
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
    valueField(lines, 'observed now', [...seen, ...text(`   locator ${r.observed.locator}`)], ROWS.observed, style, layout);
    if (r.config_history !== null) lines.prose(r.config_history.summary);
    lines.field('origin', text(`${r.origin ?? ''}   state version ${r.state_version ?? ''}`));
  }
  renderReviewTail(lines, r, style, nowMs, layout);
  return lines.toString();
}
