import type { RequestReview } from './alias-request-review.js';
import { renderSafe } from './render-safe.js';
import type { Style } from './terminal-style.js';

function time(ms: number): string {
  return `${new Date(ms).toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, ' UTC')}`;
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

/**
 * Human rendering of a verified review. Every string from the request passes through renderSafe and is
 * quoted, so descriptions cannot spoof the terminal; digests are hex by construction.
 */
export function renderReview(r: RequestReview, style: Style, nowMs: number): string {
  const q = (s: string) => `"${renderSafe(s)}"`;
  const lines: string[] = [];
  lines.push(style.bold(TITLES[r.request]));
  lines.push(`  ${style.green('server signature verified')} (server key ${r.server_key_id.slice(0, 16)}…); digests recomputed below`);
  if (r.appliance !== null) {
    lines.push(`  appliance      ${q(r.appliance.base_url)}  TLS ${r.appliance.tls_mode}  id ${q(r.appliance.appliance_id)}`);
  }
  const members = r.alias.address.map((a, i) => `${renderSafe(a)} (${renderSafe(r.alias.detail[i] ?? '')})`).join(', ');
  lines.push(`  alias          ${style.bold(q(r.alias.name))}  type ${q(r.alias.type)}  ${r.alias.address.length} member(s)`);
  if (members.length > 0) lines.push(`  members        ${members.length > 300 ? `${members.slice(0, 300)}…` : members}`);
  lines.push(`  description    ${q(r.old_description)}`);
  lines.push(`            →    ${style.yellow(q(r.new_description))}`);
  if (r.observed !== null) {
    lines.push(
      `  observed now   ${r.observed.description === null ? style.red('no single alias could be observed') : q(r.observed.description)}  (locator ${r.observed.locator})`,
    );
    lines.push(`  origin         ${r.origin ?? ''}   state version ${r.state_version ?? ''}`);
  }
  const ids = [`operation ${r.operation_id}`];
  if (r.contract_id !== null) ids.push(`contract ${r.contract_id}`);
  if (r.step_id !== null) ids.push(`step ${r.step_id}`);
  if (r.risk_class !== null) ids.push(`risk ${r.risk_class}`);
  if (r.request === 'release' && r.state_version !== null) ids.push(`state version ${r.state_version}`);
  lines.push(`  ids            ${ids.join('   ')}`);
  lines.push(`  issued         ${time(r.issued_at)}   expires ${time(r.expires_at)} (${remaining(r.expires_at, nowMs)})`);
  lines.push('  digests');
  for (const [name, value] of Object.entries(r.digests)) lines.push(`    ${name.padEnd(26)} ${style.dim(value)}`);
  lines.push(`  request digest ${style.cyan(style.bold(r.approve_prefix))}${r.request_digest.slice(r.approve_prefix.length)}`);
  return `${lines.join('\n')}\n`;
}
