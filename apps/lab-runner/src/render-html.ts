import { applianceSummary } from './render-markdown.js';
import type { LabReport } from './lab-report.js';
import type { ScenarioResult } from './scenario-result.js';
import { corroborationText, revisionSnapshotText } from './revision-snapshot.js';
import { pfObservationText } from './timeline.js';
import type { TimelineEvent } from './timeline.js';

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

const STYLE = `
:root{--ok:#1a7f37;--bad:#cf222e;--ink:#1f2328;--mute:#656d76;--line:#d0d7de;--bg:#f6f8fa}
*{box-sizing:border-box}body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--ink);background:#fff}
header{padding:20px 28px;border-bottom:1px solid var(--line);background:var(--bg)}
h1{margin:0 0 4px;font-size:22px}h2{margin:0;font-size:17px}.meta{color:var(--mute)}
main{padding:20px 28px;display:grid;gap:18px}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(230px,1fr));gap:8px;margin-top:12px}
.tile{border:1px solid var(--line);border-radius:8px;padding:8px 10px;background:#fff}
.tile b{display:block;font-family:ui-monospace,monospace;font-size:13px}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-weight:600;font-size:12px;color:#fff}
.pass{background:var(--ok)}.fail{background:var(--bad)}
section{border:1px solid var(--line);border-radius:10px;overflow:hidden}
section>.head{display:flex;gap:10px;align-items:center;padding:10px 14px;background:var(--bg);border-bottom:1px solid var(--line)}
section>.body{padding:10px 14px;display:grid;gap:10px}
.proves{color:var(--mute)}
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
th{font-weight:600;background:#fafbfc}td.n{text-align:right;font-variant-numeric:tabular-nums}
.mismatch{color:var(--bad);font-weight:600}.match{color:var(--ok)}
.states{display:flex;flex-wrap:wrap;gap:4px;align-items:center}
.st{font:12px ui-monospace,monospace;padding:1px 6px;border-radius:4px;background:#ddf4ff;border:1px solid #b6e3ff}
.st.end{background:#dafbe1;border-color:#aceebb}.st.bad{background:#ffebe9;border-color:#ffcecb}
.actor{font:12px ui-monospace,monospace;padding:0 5px;border-radius:4px;background:#eaeef2}
.actor.owner{background:#fbefff}.actor.orchestration{background:#fff8c5}.actor.worker{background:#ffebe9}
code{font:12px ui-monospace,monospace}
`;

const BAD_STATES = new Set(['FAILED', 'ROLLBACK_FAILED', 'RECONCILIATION']);

function stateChips(states: readonly string[]): string {
  if (states.length === 0) return '<span class="meta">—</span>';
  return `<span class="states">${states
    .map((s, i) => `<span class="st${i === states.length - 1 ? (BAD_STATES.has(s) ? ' bad' : ' end') : ''}">${escapeHtml(s)}</span>`)
    .join('→')}</span>`;
}

const sendsText = (s: { forward: number; rollback: number; orchestration: number }): string =>
  `${s.forward} / ${s.rollback} / ${s.orchestration}`;

function row(label: string, expected: string, observed: string, ok: boolean): string {
  return `<tr><td>${escapeHtml(label)}</td><td>${expected}</td><td class="${ok ? 'match' : 'mismatch'}">${observed}</td></tr>`;
}

function timelineRow(e: TimelineEvent): string {
  const sends = e.sends.forward + e.sends.rollback + e.sends.orchestration > 0 ? sendsText(e.sends) : '';
  const revisions =
    e.revisions === undefined
      ? ''
      : `${escapeHtml(revisionSnapshotText(e.revisions.before))} → ${escapeHtml(revisionSnapshotText(e.revisions.after))}`;
  const artifact =
    e.artifact === null
      ? ''
      : `${escapeHtml(e.artifact.kind.replace('pfsense-mcp/', ''))} <code title="${escapeHtml(e.artifact.digest)}">${escapeHtml(e.artifact.digest.slice(0, 16))}…</code>`;
  return `<tr><td class="n">${e.at_ms}</td><td><span class="actor ${escapeHtml(e.actor)}">${escapeHtml(e.actor)}</span></td><td>${escapeHtml(e.action)}</td><td>${e.state === null ? '' : `<span class="st">${escapeHtml(e.state)}</span>`}</td><td class="n">${e.reads || ''}</td><td>${sends}</td><td>${artifact}</td><td>${revisions}</td><td>${escapeHtml(pfObservationText(e.pf))}</td></tr>`;
}

/** The reconciliation requests the owner reviewed, with their config-history corroboration. */
function pendingEvidence(r: ScenarioResult): string {
  const pending = r.signed.filter((x) => x.config_history !== undefined);
  if (pending.length === 0) return '';
  const items = pending.map(
    (x) =>
      `<li>${escapeHtml(x.requestKind.replace('pfsense-mcp/', ''))} <code>${escapeHtml(x.requestDigest.slice(0, 16))}…</code>: ${escapeHtml(corroborationText(x.config_history ?? null))}; signed ${escapeHtml(x.outcome ?? '—')}</li>`,
  );
  return `<div>Pending evidence (reconciliation requests as the owner reviewed them):<ul>${items.join('')}</ul></div>`;
}

function scenarioSection(r: ScenarioResult): string {
  const f = r.fault;
  const fault = `${escapeHtml(f.kind ?? '')}${f.phase ? ` at ${escapeHtml(f.phase)}` : ''}${f.proxy_kind ? ` (${escapeHtml(f.proxy_kind)})` : ''}${f.upstream_delivery ? `, upstream: ${escapeHtml(f.upstream_delivery)}` : ''}`;
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  return `<section id="${escapeHtml(r.id)}">
<div class="head"><span class="badge ${r.ok ? 'pass' : 'fail'}">${r.ok ? 'PASS' : 'FAIL'}</span><h2><code>${escapeHtml(r.id)}</code></h2><span class="meta">${r.duration_ms} ms · fault: ${fault}</span></div>
<div class="body">
<div class="proves">${escapeHtml(r.proves)}</div>
<table><thead><tr><th>check</th><th>expected</th><th>observed</th></tr></thead><tbody>
${row('subject states', stateChips(r.expected_states), stateChips(r.states), same(r.states, r.expected_states))}
${row('sends forward / rollback / orchestration', sendsText(r.expected_sends), sendsText(r.sends), same(r.sends, r.expected_sends))}
${row('alias writes the simulator counted', String(r.expected_appliance_writes), String(r.appliance_writes ?? '—'), r.appliance_writes === r.expected_appliance_writes)}
${row('contracts reconciled on restart', String(r.expected_reconciled_on_restart ?? '—'), String(r.reconciled_on_restart ?? '—'), r.reconciled_on_restart === r.expected_reconciled_on_restart)}
${row('candidate is A (fresh read, exact fingerprint)', 'yes', r.final_target_matches ? 'yes' : 'NO', r.final_target_matches)}
${row('sibling aliases byte-identical', 'yes', r.siblings_unchanged ? 'yes' : 'NO', r.siblings_unchanged)}
${r.orchestration_states.map((s, i) => row(`orchestration contract ${i + 1}`, 'ends VERIFIED', stateChips(s), s[s.length - 1] === 'VERIFIED')).join('\n')}
</tbody></table>
${r.failures.length > 0 ? `<div class="mismatch">${r.failures.map((x) => escapeHtml(x)).join('<br>')}</div>` : ''}
${r.left !== null ? `<div>Left: <b>${escapeHtml(r.left.action)}</b>; subject ${escapeHtml(r.left.subject_state ?? '—')}; candidate is A: ${escapeHtml(String(r.left.candidate_is_original ?? 'unknown'))} — ${escapeHtml(r.left.reason)}</div>` : ''}
<table><thead><tr><th>t (ms)</th><th>actor</th><th>step</th><th>state</th><th>reads</th><th>sends f/r/o</th><th>artifact (digest)</th><th>config history before → after</th><th>apply and pf after</th></tr></thead><tbody>
${r.timeline.map(timelineRow).join('\n')}
</tbody></table>
${pendingEvidence(r)}
<div class="meta">appliance binding <code>${escapeHtml(r.appliance_binding_digest ?? '—')}</code></div>
</div></section>`;
}

/** report.html: self-contained (inline CSS, no script, no external asset). */
export function renderHtml(report: LabReport): string {
  const allOk = report.summary.failed === 0 && !report.interrupted;
  const tiles = report.scenarios
    .map(
      (r) =>
        `<a class="tile" href="#${escapeHtml(r.id)}" style="text-decoration:none;color:inherit"><span class="badge ${r.ok ? 'pass' : 'fail'}">${r.ok ? 'PASS' : 'FAIL'}</span> <b>${escapeHtml(r.id)}</b><span class="meta">sends ${sendsText(r.sends)} · ends ${escapeHtml(r.states[r.states.length - 1] ?? '—')}</span></a>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>pfsense-mcp lab report</title><style>${STYLE}</style></head>
<body><header>
<h1><span class="badge ${allOk ? 'pass' : 'fail'}">${allOk ? 'ALL PASSED' : report.interrupted ? 'INTERRUPTED' : `${report.summary.failed} FAILED`}</span> pfsense-mcp lab report</h1>
<div class="meta">${escapeHtml(report.product.name)} ${escapeHtml(report.product.version)} · pfrest ${escapeHtml(report.pfrest_version)} · target: ${escapeHtml(report.target)} · ${escapeHtml(report.started_at)} → ${escapeHtml(report.finished_at)}</div>
${applianceSummary(report) === null ? '' : `<div class="meta">${escapeHtml(applianceSummary(report) as string)}</div>\n`}<div class="meta">passed ${report.summary.passed}, failed ${report.summary.failed} · sentinel scan: ${report.sentinel_scan.found} of ${report.sentinel_scan.sentinels} sentinels found</div>
<div class="grid">${tiles}</div>
</header>
<main>
${report.scenarios.map(scenarioSection).join('\n')}
</main></body></html>
`;
}
