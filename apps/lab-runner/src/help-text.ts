import { SCENARIOS } from './scenario-registry.js';
import type { ScenarioDefinition } from './scenario-definition.js';

export const HELP_TEXT = `pfsense-mcp-lab — the closed lab scenarios of the write path, against the
bundled simulator

Usage:
  npm run lab -- --scenario ID [--scenario ID …] [--json] [--report-dir DIR]
  npm run lab -- --all [--json] [--report-dir DIR]
  npm run lab -- --list [--json]
  npm run lab -- --request-gate --lab-config FILE --scenarios ID,ID|all [--json]
  npm run lab -- --all|--scenario ID --lab-config FILE --gate-receipt FILE
                 [--json] [--report-dir DIR]
  npm run lab -- --resume RUN_ID --lab-config FILE [--json] [--report-dir DIR]
  npx nx run lab-runner:run -- …            (the same program)

Each scenario starts its own simulator child on 127.0.0.1 with a fixed candidate
alias (LAB_CANDIDATE) and two siblings, a fresh store in the run's private
directory, and runs through the real coordinator and sealed executor; selected
scenarios run in parallel. Only scenario ids come from the command line: no
endpoint, method, payload, alias, description, fault or store path can be given.

Options:
  --scenario ID      run one scenario (repeatable); --list shows the ids
  --all              run every scenario of the registry
  --json             one JSON line per scenario on stdout, then
                     {"summary":{"passed","failed"}}
  --report-dir DIR   write report.json, report.md and report.html there (created
                     0700, files 0600; an existing non-empty DIR is refused);
                     default: a new lab-report-<time>-* directory under the
                     working directory, printed at the end
  --list             the registry: id, expected sends
                     (forward/rollback/orchestration), states, what it proves
  --lab-config FILE  a disposable test appliance instead of the simulator: an
                     owner-only JSON file {"url","api_key_file",
                     "candidate_alias","ca_file"?,"expected_appliance"?,
                     "allow_http_loopback"?,"reconciliation_public_key_file"?}
                     (unknown fields refused; the last one — the owner's
                     reconciliation .pub — is needed by the scenarios that end
                     in a reconciliation decision or a release: d3, e-*,
                     g-restart-executing, g-restart-rolling-back,
                     entries-forward-response-lost, entries-table-stale,
                     entries-restart-executing). Next to it:
                     lab-request.key/.pub (the runner's request key, made on
                     first use) and lab-gate.pub (the owner's lab-gate public
                     key, from pfsense-mcp-signer keygen --role lab-gate)
  --request-gate     write a pending gate request for --scenarios next to the
                     lab config; --json prints
                     {"pending_request","request_public_key"}. The owner signs
                     it with pfsense-mcp-signer sign FILE --key
                     lab-gate-<id>.key --server-key lab-request.pub
  --scenarios LIST   the gate's scenario set: ids separated by commas, or all
  --gate-receipt F   the signed gate receipt: checked before any request (role
                     lab-gate, deadline, appliance, candidate, scenarios), then
                     a read-only preflight; scenarios run one after the other
                     and the deadline is re-checked before every action. A
                     scenario that reaches a reconciliation decision or a
                     release stops there (exit 4): it prints the run id, the
                     pending request and the exact pfsense-mcp-signer command
                     (role reconciliation, --out the run's evidence directory)
  --resume RUN_ID    continue that run in a new process, after the owner signed:
                     the run's signed state, the same appliance, its gate
                     receipt still unexpired, the owner's answer verified; then
                     the scenario, the rest of the run, the closing read-back,
                     the report
  -h, --help         this text

Output: this help, --list and the run's report lines print on stdout; errors and
progress go to stderr.

Signing: on the simulator the runner plays the owner with throw-away Ed25519
keys it generates per run (test-only; never written to the report). Ctrl-C stops
before the next step, brings the candidate back to its original description
through the sealed path where that is safe (or reports what it left), and writes
the report. Against an appliance the runner still signs the authorizations and
confirmations of its own contracts with per-run in-memory keys (the owner's
signed gate receipt permits them); a reconciliation decision or a release is the
owner's alone (reconciliation_public_key_file is the only key pinned for it).

Exit:
  0   every selected scenario met its declaration (and, against an appliance,
      it is exactly as found)
  1   a scenario failed
  2   usage error or lab config refused
  3   gate receipt, preflight or resume refused, nothing changed
  4   stopped for the owner's signature (continue with --resume)
  130 interrupted
`;

export function listLine(s: ScenarioDefinition): string {
  const e = s.sends;
  return `${s.id.padEnd(28)} sends f${e.forward} r${e.rollback} o${e.orchestration}  writes ${s.applianceWrites}  ${s.states.join(' → ')}\n${' '.repeat(29)}${s.proves}\n`;
}

export function listJson(s: ScenarioDefinition): string {
  return `${JSON.stringify({ id: s.id, proves: s.proves, fault: s.fault, sends: s.sends, appliance_writes: s.applianceWrites, states: s.states, owner_outcome: s.ownerOutcome, final_target: s.finalTarget })}\n`;
}

export function listText(json: boolean): string {
  return SCENARIOS.map((s) => (json ? listJson(s) : listLine(s))).join('');
}
