import type { GateRequestReview } from './gate-request-review.js';
import { DIGEST_SHOWN_LENGTH, REVIEW_WIDTH, approveNeedsKey } from './render-review-parts.js';
import { displayWidth } from './display-width.js';
import { safeTokens } from './render-safe.js';
import type { Style } from './terminal-style.js';

const LABEL_WIDTH = 14;

function time(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d{3}Z$/, ' UTC');
}

/** A value from the request, quoted, one display token per piece (escaped by safeTokens). */
function quoted(value: string): string[] {
  return ['"', ...safeTokens(value), '"'];
}

/**
 * Pieces of one field packed into lines of at most REVIEW_WIDTH columns under the value column; a piece is
 * never split (pieces are single display tokens, ids or short words). Styling is applied per line.
 */
function wrapped(label: string, pieces: readonly string[], paint: (s: string) => string = (s) => s): string[] {
  const room = REVIEW_WIDTH - 2 - LABEL_WIDTH;
  const rows: string[] = [];
  let row = '';
  for (const p of pieces) {
    if (row !== '' && displayWidth(row) + displayWidth(p) > room) {
      rows.push(row);
      row = '';
    }
    row += p;
  }
  rows.push(row);
  return rows.map((r, i) => `${i === 0 ? `  ${label.padEnd(LABEL_WIDTH)}` : ' '.repeat(2 + LABEL_WIDTH)}${paint(r)}`);
}

const words = (s: string): string[] => s.split(/(?= )/);

/**
 * A lab gate request for an 80-column terminal: what the runner asks to be allowed to change — the appliance
 * (quoted, escaped like every value), the one candidate alias, the scenario set — and until when.
 */
export function renderGateReview(r: GateRequestReview, style: Style, nowMs: number, full: boolean): string {
  const short = (hex: string) => (full ? hex : `${hex.slice(0, DIGEST_SHOWN_LENGTH)}…`);
  const minutes = Math.max(0, Math.floor((r.deadline - nowMs) / 60_000));
  return `${[
    style.bold('LAB GATE request — let the lab runner change one alias of a disposable appliance'),
    `  ${style.green('runner signature verified')} (key ${r.server_key_id.slice(0, 16)}…); digest recomputed`,
    ...wrapped('appliance', quoted(r.appliance.base_url)),
    ...wrapped('', [...words(`TLS ${r.appliance.tls_mode}   id `), ...quoted(r.appliance.appliance_id)]),
    ...wrapped('candidate', quoted(r.candidate_alias), style.bold),
    ...wrapped(
      'scenarios',
      r.scenarios.map((s, i) => (i < r.scenarios.length - 1 ? `${s}, ` : s)),
    ),
    ...wrapped('deadline', words(`${time(r.deadline)} (in ${minutes} min)`)),
    ...wrapped('gate', [...r.gate_id]),
    ...wrapped('issued', [time(r.issued_at)]),
    `  digests       ${full ? 'recomputed from the facts shown' : `first ${DIGEST_SHOWN_LENGTH} hex; --full shows all 64`}`,
    ...Object.entries(r.digests).flatMap(([k, v]) =>
      full ? [`    ${k}`, `      ${style.dim(v)}`] : [`    ${k.padEnd(26)} ${style.dim(short(v))}`],
    ),
    ...(full ? ['  request digest', `      ${r.request_digest}`] : wrapped('request', [short(r.request_digest)])),
    ...(r.approve_prefix === null
      ? wrapped('approve with', [approveNeedsKey(r.key_role)], style.yellow)
      : wrapped('approve with', [r.approve_prefix], (s) => style.cyan(style.bold(s)))),
  ].join('\n')}\n`;
}
