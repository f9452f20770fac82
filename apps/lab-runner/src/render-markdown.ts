import type { LabReport } from './lab-report.js';
import { corroborationText, revisionSnapshotText } from './revision-snapshot.js';
import type { ScenarioResult } from './scenario-result.js';
import { pfObservationText } from './timeline.js';

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const sendsText = (s: { forward: number; rollback: number; orchestration: number }): string =>
  `${s.forward} / ${s.rollback} / ${s.orchestration}`;
const short = (digest: string): string => digest.slice(0, 16);

function scenarioSection(r: ScenarioResult): string {
  const lines = [
    `## ${r.ok ? 'PASS' : 'FAIL'} — \`${r.id}\``,
    '',
    cell(r.proves),
    '',
    `Fault: ${r.fault.kind}${r.fault.phase ? ` at ${r.fault.phase}` : ''}${r.fault.proxy_kind ? ` (${r.fault.proxy_kind})` : ''}${r.fault.upstream_delivery ? `, upstream: ${r.fault.upstream_delivery}` : ''}.`,
    '',
    '| check | expected | observed |',
    '|---|---|---|',
    `| subject states | ${r.expected_states.join(' → ')} | ${r.states.join(' → ') || '—'} |`,
    `| sends forward / rollback / orchestration | ${sendsText(r.expected_sends)} | ${sendsText(r.sends)} |`,
    `| alias writes counted by the simulator | ${r.expected_appliance_writes} | ${r.appliance_writes ?? '—'} |`,
    `| contracts reconciled on restart | ${r.expected_reconciled_on_restart ?? '—'} | ${r.reconciled_on_restart ?? '—'} |`,
    `| candidate is A (fresh read, exact fingerprint) | yes | ${r.final_target_matches ? 'yes' : 'NO'} |`,
    `| sibling aliases byte-identical | yes | ${r.siblings_unchanged ? 'yes' : 'NO'} |`,
    '',
  ];
  if (r.orchestration_states.length > 0)
    lines.push(`Orchestration contracts: ${r.orchestration_states.map((s) => s.join(' → ')).join('; ')}.`, '');
  if (r.failures.length > 0) lines.push('Failures:', '', ...r.failures.map((f) => `- ${cell(f)}`), '');
  if (r.left !== null)
    lines.push(
      `Left: ${r.left.action}; subject ${r.left.subject_state ?? '—'}; candidate is A: ${r.left.candidate_is_original ?? 'unknown'} (${cell(r.left.reason)}).`,
      '',
    );
  lines.push(
    '| t (ms) | actor | step | state | reads | sends f/r/o | artifact | config history before → after | apply and pf after |',
    '|---:|---|---|---|---:|---|---|---|---|',
  );
  for (const e of r.timeline) {
    const revisions =
      e.revisions === undefined ? '' : `${revisionSnapshotText(e.revisions.before)} → ${revisionSnapshotText(e.revisions.after)}`;
    lines.push(
      `| ${e.at_ms} | ${e.actor} | ${cell(e.action)} | ${e.state ?? ''} | ${e.reads} | ${sendsText(e.sends)} | ${e.artifact ? `${e.artifact.kind.replace('pfsense-mcp/', '')} ${short(e.artifact.digest)}` : ''} | ${revisions} | ${pfObservationText(e.pf)} |`,
    );
  }
  lines.push('');
  const pending = r.signed.filter((x) => x.config_history !== undefined);
  if (pending.length > 0) {
    lines.push('Pending evidence (reconciliation requests as the owner reviewed them):', '');
    for (const x of pending)
      lines.push(
        `- ${x.requestKind.replace('pfsense-mcp/', '')} ${short(x.requestDigest)}: ${cell(corroborationText(x.config_history ?? null))}; signed ${x.outcome ?? '—'}`,
      );
    lines.push('');
  }
  return lines.join('\n');
}

/** report.md: the same facts as report.json, for reading. */
/** Against an appliance: its binding digest, the gate deadline, the preflight and the closing read-back. */
export function applianceSummary(report: LabReport): string | null {
  const a = report.appliance;
  if (a === null) return null;
  const closing =
    a.closing.exactly_as_found === true
      ? 'exactly as found'
      : a.closing.exactly_as_found === false
        ? 'NOT as found'
        : `not read (${a.closing.reason ?? 'unknown'})`;
  const pending = a.closing.pending_subsystems === null ? 'unknown' : a.closing.pending_subsystems.join(', ') || 'none';
  return `appliance ${a.binding_digest} · gate deadline ${a.gate_deadline} · preflight: pfrest ${a.preflight.pfrest_version ?? 'unknown'}, candidate once, ${a.preflight.sibling_count} other aliases recorded, nothing pending · closing read-back: ${closing} (pending now: ${pending})${a.owner_pauses ? ` · stopped ${a.owner_pauses}× for the owner's signature (run ${a.run_id ?? '?'}, resumed)` : ''}`;
}

function applianceLines(report: LabReport): string[] {
  const line = applianceSummary(report);
  return line === null ? [] : [line, ''];
}

export function renderMarkdown(report: LabReport): string {
  return [
    `# Lab report — ${report.summary.failed === 0 && !report.interrupted ? 'all passed' : `${report.summary.failed} failed`}`,
    '',
    `${report.product.name} ${report.product.version} · pfrest ${report.pfrest_version} · target: ${report.target} · ${report.started_at} → ${report.finished_at}${report.interrupted ? ' · INTERRUPTED' : ''}`,
    '',
    `Passed ${report.summary.passed}, failed ${report.summary.failed}. Sentinel scan: ${report.sentinel_scan.found} of ${report.sentinel_scan.sentinels} sentinels found.`,
    '',
    ...applianceLines(report),
    '| scenario | result | states | sends f/r/o (expected) | candidate is A | appliance binding |',
    '|---|---|---|---|---|---|',
    ...report.scenarios.map(
      (r) =>
        `| \`${r.id}\` | ${r.ok ? 'PASS' : 'FAIL'} | ${r.states.join(' → ')} | ${sendsText(r.sends)} (${sendsText(r.expected_sends)}) | ${r.final_target_matches ? 'yes' : 'NO'} | ${r.appliance_binding_digest ? short(r.appliance_binding_digest) : '—'} |`,
    ),
    '',
    ...report.scenarios.map(scenarioSection),
  ].join('\n');
}
