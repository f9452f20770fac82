import { ALIAS_USAGE_REVIEW_RULES } from '@pfsense-mcp/adapters';
import type { AliasRuleUse } from '@pfsense-mcp/adapters';
import type { PfTableState } from '@pfsense-mcp/authorization';
import type { AliasEntriesRequestReview, EntryChangeReview } from './alias-entries-request-review.js';
import { applianceValues, namedValueNotes } from './look-alike.js';
import type { NamedValue } from './look-alike.js';
import { renderReviewHead, renderReviewTail, reviewTime, reviewTitle, valueField } from './render-review-parts.js';
import type { ReviewLayout } from './render-review-parts.js';
import { Lines, idPieces, quoted, text } from './review-lines.js';
import type { Piece } from './review-lines.js';
import type { Style } from './terminal-style.js';

/**
 * Rows a value may take in the default review before it is cut (--full shows it whole): every change and every
 * listed rule starts its own line, so the list reads like a diff (README "Review layout"); what decides — the
 * address, the action, where and whether the rule is disabled — comes before the free text that may be cut.
 */
const ROWS = Object.freeze({ description: 1, change: 2, rule: 2, observed: 1 });

/** Columns of the action in a rule line: the longest action (`reject`) and a space. */
const ACTION_WIDTH = 7;

function changeLine(c: EntryChangeReview, style: Style): Piece[] {
  // Addresses are canonical literals (the intent was parsed as the adapter parses it); they still pass safeTokens.
  if (c.change === 'add') return [...text('+ ', style.green), ...idPieces(c.address), ...text('  '), ...quoted(c.detail)];
  return [...text('- ', style.red), ...idPieces(c.address)];
}

function ruleLine(u: AliasRuleUse, style: Style): Piece[] {
  const action = text(u.action.padEnd(ACTION_WIDTH), u.action === 'pass' ? style.yellow : style.bold);
  const where = [...idPieces(u.interface.join(',')), ...text('  '), ...idPieces(u.direction), ...text('  ')];
  return [...action, ...where, ...(u.disabled ? text('(disabled)  ', style.dim) : []), ...quoted(u.descr)];
}

/** How the observed lists compare with the lists before and after the change (the lists themselves: --json). */
function observedSummary(r: AliasEntriesRequestReview, style: Style): Piece[] {
  const o = r.observed;
  if (o === null || o.address === null || o.detail === null) return text('no single alias could be observed', style.red);
  const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
  const address = o.address;
  const before = same(address, r.alias.address) && same(o.detail, r.alias.detail);
  const changed = r.changes.every((c) => address.includes(c.address) === (c.change === 'add'));
  const how = before
    ? 'as before the change'
    : changed && o.address.length === r.entries_after
      ? 'with the change'
      : 'neither as before nor with the change';
  return text(`${o.address.length} entries, ${how}   locator ${o.locator}`);
}

/**
 * What pf enforces, as the server read the alias's table with the observation: whether it holds exactly the observed
 * entries, or which it lacks and which it holds besides (the first few; --json has the lists and counts).
 */
function pfTableSummary(t: PfTableState | null, style: Style): Piece[] {
  if (t === null) return text('not in this request (older than version 3)', style.dim);
  if (t.status === 'UNREADABLE') return text('could not be read', style.red);
  if (t.status === 'MISSING') return text('pf has no table of this name: nothing it holds is enforced', style.red);
  const count = text(`${t.entry_count ?? 0} entr${t.entry_count === 1 ? 'y' : 'ies'}`);
  if (t.missing_count === 0 && t.extra_count === 0) return [...count, ...text(', exactly the observed alias')];
  // Server-reported strings: each passes idPieces (escaped), as the addresses of the change lines do.
  const part = (what: string, n: number | null, list: readonly string[]): Piece[] => {
    if (n === null || n === 0) return [];
    const shown = list.slice(0, 2).flatMap((e, i) => [...(i > 0 ? text(', ') : []), ...idPieces(e)]);
    return [...text(`; ${what} `, style.red), ...shown, ...(n > 2 ? text(` and ${n - 2} more`) : [])];
  };
  return [...count, ...part('lacks', t.missing_count, t.missing), ...part('holds besides', t.extra_count, t.extra)];
}

/** Differences of the observed lists from the lists before the change listed one per line; more are counted. */
const OBSERVED_DIFFERENCES_LISTED = 10;

/**
 * The observed lists as they differ from the lists before the change, one line each like a change line: `+` an
 * entry there now that was not before (with its detail), `-` one that was and is gone. An operator deciding
 * APPLIED / NOT_APPLIED reads what is on the alias, not only a verdict.
 */
function observedDifferences(r: AliasEntriesRequestReview, style: Style): Piece[][] {
  const o = r.observed;
  if (o === null || o.address === null || o.detail === null) return [];
  const detail = o.detail;
  const added = o.address.flatMap((a, i) =>
    r.alias.address.includes(a) ? [] : [changeLine({ change: 'add', address: a, detail: detail[i] ?? '' }, style)],
  );
  const removed = r.alias.address
    .filter((a) => !o.address?.includes(a))
    .map((a) => changeLine({ change: 'remove', address: a, detail: '' }, style));
  return [...added, ...removed];
}

/** The values of an entries review a look-alike note can be about, in the order the review shows them. */
function entriesReviewValues(r: AliasEntriesRequestReview, shown: readonly AliasRuleUse[]): NamedValue[] {
  return [
    ...applianceValues(r.appliance === null ? null : { baseUrl: r.appliance.base_url, applianceId: r.appliance.appliance_id }),
    { what: 'the alias type', value: r.alias.type },
    { what: 'the alias description', value: r.alias.descr },
    ...r.changes.filter((c) => c.change === 'add').map((c) => ({ what: `the detail of + ${c.address}`, value: c.detail })),
    ...shown.map((u, i) => ({ what: `rule #${i + 1}'s description`, value: u.descr })),
  ];
}

/**
 * Human rendering of a verified entries review, at most REVIEW_WIDTH columns per line: the alias, its entry
 * count before → after, one line per change, and where the alias is used — the first ALIAS_USAGE_REVIEW_RULES
 * referencing rules (action, interfaces, direction, description) and their count, as the server read them — so
 * an operator sees a block list that feeds a pass rule before approving. Request strings pass safeTokens.
 */
export function renderEntriesReview(r: AliasEntriesRequestReview, style: Style, nowMs: number, layout: ReviewLayout): string {
  const lines = new Lines();
  renderReviewHead(lines, reviewTitle(r.request, 'the entries of one alias'), r, style, layout);
  lines.field('alias', [...quoted(r.alias.name, style.bold), ...text('   type '), ...quoted(r.alias.type)]);
  valueField(lines, 'description', quoted(r.alias.descr), ROWS.description, style, layout);
  lines.field('entries', text(`${r.entries_before} → ${r.entries_after}   applied to pf with this change`));
  for (const c of r.changes) valueField(lines, '', changeLine(c, style), ROWS.change, style, layout);
  const count = r.usage.count;
  const shown = r.usage.rules.slice(0, ALIAS_USAGE_REVIEW_RULES);
  lines.field('used by', text(`${count} rule${count === 1 ? '' : 's'}, as the server read them at ${reviewTime(r.usage.reported_at)}`));
  shown.forEach((u, i) => valueField(lines, `  #${i + 1}`, ruleLine(u, style), ROWS.rule, style, layout));
  if (count > shown.length) lines.field('', text(`… and ${count - shown.length} more (--json lists every one)`, style.dim));
  // What renders as itself may still look like something else (look-alike.ts): said in words, as in the description review.
  for (const note of namedValueNotes(entriesReviewValues(r, shown), layout.full)) lines.prose(note);
  if (r.request === 'reconciliation') {
    valueField(lines, 'observed now', observedSummary(r, style), ROWS.observed, style, layout);
    const differences = observedDifferences(r, style);
    const listed = layout.full ? differences : differences.slice(0, OBSERVED_DIFFERENCES_LISTED);
    listed.forEach((d, i) => valueField(lines, i === 0 ? 'since before' : '', d, ROWS.change, style, layout));
    if (differences.length > listed.length)
      lines.field('', text(`… and ${differences.length - listed.length} more (--full or --json lists them)`, style.dim));
    valueField(lines, 'pf table now', pfTableSummary(r.observed?.pf_table ?? null, style), ROWS.observed, style, layout);
    lines.field('origin', text(`${r.origin ?? ''}   state version ${r.state_version ?? ''}`));
  }
  renderReviewTail(lines, r, style, nowMs, layout);
  return lines.toString();
}
