// Against a disposable appliance (a separately started simulator described by a lab config), the scenarios that
// end in a reconciliation decision or a reservation release stop at the server-signed pending request (exit 4);
// the owner signs it with the real signer (role reconciliation), and `--resume RUN_ID --lab-config FILE`
// continues in a new process: the resolution sends nothing (the simulator's own counters), the rest of the run
// finishes, and the report names the appliance only by its binding digest. And every refusal of the resume.
import type { ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { ArtifactKind, createReconciliationEvidence, encodeArtifact, parseArtifactOfKind } from '@pfsense-mcp/authorization';
import { readLabGatePrivateKeyFile, writeSecretFile } from '@pfsense-mcp/crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './support/run-cli.js';
import {
  APPLIANCE_ID,
  DESCRIPTION_A,
  aliasWrites,
  aliases,
  counters,
  labDir,
  ownerReconciliationKey,
  ownerSigns,
  requestGate,
  signer,
  simData,
  startSim,
  total,
} from './support/appliance-lab.js';
import type { Lab, Sim } from './support/appliance-lab.js';

const root = mkdtempSync(join(tmpdir(), 'lab-resume-test-'));
chmodSync(root, 0o700);
const sims: ChildProcess[] = [];
afterAll(() => {
  for (const c of sims) c.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

interface Pending {
  run_id: string;
  scenario: string;
  request: 'reconciliation' | 'release';
  pending_request: string;
  request_digest: string;
  observed: 'APPLIED' | 'NOT_APPLIED' | null;
  server_key_file: string;
  evidence_dir: string;
  signer_command: string;
  resume_command: string;
}

const jsonLines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test-only access to the JSON lines
    .map((l) => JSON.parse(l) as Record<string, any>);

/** A lab with the owner's reconciliation key pinned through the lab config (made with the real signer). */
async function ownerLab(name: string, sim: Sim): Promise<{ lab: Lab; ownerKey: string }> {
  const base = labDir(root, name, sim);
  const owner = ownerReconciliationKey(base);
  const config = JSON.parse(readFileSync(base.config, 'utf8')) as Record<string, unknown>;
  rmSync(base.config);
  writeFileSync(base.config, JSON.stringify({ ...config, reconciliation_public_key_file: owner.pub }), { mode: 0o600 });
  return { lab: base, ownerKey: owner.key };
}

/** The owner reviews the pending request and signs it with the real signer into the evidence directory. */
function ownerAnswers(p: Pending, ownerKey: string, outcome: 'APPLIED' | 'NOT_APPLIED' | null): string {
  const review = signer(['review', p.pending_request, '--server-key', p.server_key_file, '--key', ownerKey, '--json']);
  expect(review.status, review.stderr).toBe(0);
  const prefix = (JSON.parse(review.stdout) as { review: { approve_prefix: string } }).review.approve_prefix;
  // The approval code is keyed by the owner's key: never the request digest's prefix the runner printed.
  expect(prefix).toMatch(/^[0-9a-f]{12}$/);
  expect(prefix).not.toBe(p.request_digest.slice(0, 12));
  const args = [
    'sign',
    p.pending_request,
    '--key',
    ownerKey,
    '--server-key',
    p.server_key_file,
    '--out',
    p.evidence_dir,
    '--approve',
    prefix,
    '--json',
  ];
  const sign = signer(outcome === null ? args : [...args, '--outcome', outcome]);
  expect(sign.status, sign.stderr).toBe(0);
  return (JSON.parse(sign.stdout) as { file: string }).file;
}

function expectPause(
  r: { code: number | null; stdout: string; stderr: string },
  scenario: string,
  request: Pending['request'],
  observed: Pending['observed'],
  ownerKey: string,
): Pending {
  expect(r.code, r.stderr).toBe(4);
  const lines = jsonLines(r.stdout);
  const p = lines[lines.length - 1]?.pending as Pending;
  expect(p).toMatchObject({ scenario, request, observed });
  expect(p.run_id).toMatch(/^[0-9a-f]{32}$/);
  // The exact commands for the owner: the owner's reconciliation key by its file name, the server key that
  // signed the request, the outcome the runner observed, and where the signer writes its answer.
  expect(p.signer_command).toBe(
    [
      'pfsense-mcp-signer',
      'sign',
      p.pending_request,
      '--key',
      basename(ownerKey),
      '--server-key',
      p.server_key_file,
      ...(observed === null ? [] : ['--outcome', observed]),
      '--out',
      p.evidence_dir,
    ].join(' '),
  );
  expect(p.resume_command).toContain(`--resume ${p.run_id} --lab-config `);
  expect(statSync(p.evidence_dir).mode & 0o777).toBe(0o700);
  expect(readdirSync(p.evidence_dir)).toEqual([]);
  expect(r.stderr).toContain(`resume with --resume ${p.run_id}`);
  return p;
}

describe('an E scenario against an appliance stops for the owner, and --resume continues it', () => {
  it('pause → every resume refusal (nothing sent) → the real signer → resume: zero sends to resolve, exactly as found, the report by digest', async () => {
    const sim = await startSim(root, sims, 'e', simData(aliases()));
    const { lab, ownerKey } = await ownerLab('e', sim);
    const receipt = ownerSigns(lab, (await requestGate(lab, 'e-forward-response-lost')).pending_request);
    const report = join(lab.dir, 'report');
    const r = await runCli(
      ['--scenario', 'e-forward-response-lost', '--lab-config', lab.config, '--gate-receipt', receipt, '--json', '--report-dir', report],
      { cwd: lab.dir },
    );
    const p = expectPause(r, 'e-forward-response-lost', 'reconciliation', 'APPLIED', ownerKey);
    // The forward reached the appliance (its response was lost); nothing else was sent; no report yet.
    expect(aliasWrites(await counters(sim))).toBe(1);
    expect(existsSync(report)).toBe(false);
    const runDir = join(lab.dir, `lab-run-${p.run_id}`);
    expect(p.pending_request.startsWith(`${runDir}/`)).toBe(true);
    expect(statSync(runDir).mode & 0o777).toBe(0o700);
    const stateFile = join(runDir, 'run-state.json');
    expect(statSync(stateFile).mode & 0o777).toBe(0o600);
    const stateText = readFileSync(stateFile, 'utf8');
    expect(stateText).not.toMatch(/private/i);
    // Only public run keys are saved (64 hex each, by role).
    const saved = (JSON.parse(stateText) as { state: { earlier_keys: { role: string; public_key: string }[] } }).state.earlier_keys;
    expect(saved.map((k) => k.role).sort()).toEqual(['confirmation', 'plan-authorization', 'server-request']);
    expect(readFileSync(p.server_key_file, 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);

    const resume = (config = lab.config) =>
      runCli(['--resume', p.run_id, '--lab-config', config, '--json', '--report-dir', report], { cwd: lab.dir });
    const refused = async (code: string, config?: string) => {
      const before = total(await counters(sim));
      const x = await resume(config);
      expect(x.code, x.stderr).toBe(3);
      expect(x.stderr).toContain(code);
      expect(total(await counters(sim)), code).toBe(before);
    };
    // Unknown run id.
    const unknown = await runCli(['--resume', 'f'.repeat(32), '--lab-config', lab.config], { cwd: lab.dir });
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('RESUME_UNKNOWN_RUN');
    // Not signed yet.
    await refused('EVIDENCE_MISSING');
    // Unsigned: the pending request itself copied where the answer belongs.
    const copied = join(p.evidence_dir, 'copied.json');
    copyFileSync(p.pending_request, copied);
    chmodSync(copied, 0o600);
    await refused('EVIDENCE_UNSIGNED');
    rmSync(copied);
    // Wrong role: the right evidence, signed with the owner's lab-gate key.
    const request = parseArtifactOfKind(readFileSync(p.pending_request), ArtifactKind.RECONCILIATION_REQUEST);
    const gateKey = readLabGatePrivateKeyFile(lab.gateKey);
    const wrongRole = join(p.evidence_dir, 'wrong-role.json');
    writeSecretFile(
      wrongRole,
      encodeArtifact(
        createReconciliationEvidence(request, { privateKey: gateKey.privateKey }, { issuedAt: Date.now(), outcome: 'APPLIED' }),
      ),
    );
    await refused('EVIDENCE_WRONG_ROLE');
    rmSync(wrongRole);
    // A changed state file.
    rmSync(stateFile);
    const tampered = stateText.replace('"next_step":3', '"next_step":4');
    expect(tampered).not.toBe(stateText);
    writeFileSync(stateFile, tampered, { mode: 0o600 });
    await refused('RESUME_STATE_TAMPERED');
    rmSync(stateFile);
    writeFileSync(stateFile, stateText, { mode: 0o600 });
    // Another appliance: a lab config (same lab directory) naming another simulator.
    const other = await startSim(root, sims, 'e-other', simData(aliases(), {}, 'badbadbad0'));
    const otherConfig = join(lab.dir, 'other.json');
    writeFileSync(
      otherConfig,
      JSON.stringify({ ...(JSON.parse(readFileSync(lab.config, 'utf8')) as object), url: other.url, api_key_file: other.apiKeyFile }),
      { mode: 0o600 },
    );
    await refused('GATE_WRONG_APPLIANCE', otherConfig);
    expect(total(await counters(other))).toBe(0);

    // The owner signs APPLIED with the real signer; the resume resolves it, then rolls back (one send).
    ownerAnswers(p, ownerKey, 'APPLIED');
    const done = await resume();
    expect(done.code, done.stderr).toBe(0);
    const [line, summary] = jsonLines(done.stdout);
    expect(line).toMatchObject({
      id: 'e-forward-response-lost',
      ok: true,
      final_target_matches: true,
      siblings_unchanged: true,
      appliance_writes: null,
    });
    expect(line?.states).toEqual(['PREPARED', 'EXECUTING', 'RECONCILIATION', 'VERIFIED', 'ROLLING_BACK', 'ROLLED_BACK']);
    expect(line?.sends).toEqual({ forward: 1, rollback: 1, orchestration: 0 });
    expect(summary).toMatchObject({ summary: { passed: 1, failed: 0 }, closing: { exactly_as_found: true } });
    // The resolution sent nothing: the appliance counted the forward and the rollback only.
    expect(aliasWrites(await counters(sim))).toBe(2);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test-only access to the report JSON
    const json = JSON.parse(readFileSync(join(report, 'report.json'), 'utf8')) as Record<string, any>;
    expect(json.appliance).toMatchObject({ run_id: p.run_id, owner_pauses: 1, closing: { exactly_as_found: true } });
    expect(readFileSync(join(report, 'report.md'), 'utf8')).toContain(`stopped 1× for the owner's signature (run ${p.run_id}, resumed)`);
    const scenario = json.scenarios[0];
    expect(scenario.signed.filter((s: { signedKind: string }) => s.signedKind === 'pfsense-mcp/reconciliation')).toEqual([
      expect.objectContaining({ requestDigest: p.request_digest, outcome: 'APPLIED' }),
    ]);
    const actions = (scenario.timeline as { actor: string; action: string; sends: Record<string, number> }[]).map(
      (e) => `${e.actor}: ${e.action}`,
    );
    expect(actions).toContain('runner: resumed in a new process: runtime rebuilt from the store');
    expect(actions).toContain('owner: reconciliation: signed with pfsense-mcp-signer');
    for (const name of readdirSync(report)) {
      const text = readFileSync(join(report, name), 'utf8');
      for (const leak of [sim.url, APPLIANCE_ID, DESCRIPTION_A]) expect(text).not.toContain(leak);
    }
    // The run is over: its directory (stores, master keys, state) is gone, so it cannot be resumed again.
    expect(existsSync(runDir)).toBe(false);
    const again = await resume();
    expect(again.code).toBe(3);
    expect(again.stderr).toContain('RESUME_UNKNOWN_RUN');
  }, 180_000);

  it('a resume after the gate deadline is refused before any request', async () => {
    const sim = await startSim(root, sims, 'late', simData(aliases()));
    const { lab, ownerKey } = await ownerLab('late', sim);
    const receipt = ownerSigns(
      lab,
      (await requestGate(lab, 'e-rollback-response-lost', { PFSENSE_MCP_LAB_TEST_GATE_LEASE_MS: '15000' })).pending_request,
    );
    const deadline = parseArtifactOfKind(readFileSync(receipt), ArtifactKind.LAB_GATE_RECEIPT).payload.deadline;
    const r = await runCli(['--scenario', 'e-rollback-response-lost', '--lab-config', lab.config, '--gate-receipt', receipt, '--json'], {
      cwd: lab.dir,
    });
    const p = expectPause(r, 'e-rollback-response-lost', 'reconciliation', 'APPLIED', ownerKey);
    ownerAnswers(p, ownerKey, 'APPLIED');
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now()) + 100));
    const before = total(await counters(sim));
    const x = await runCli(['--resume', p.run_id, '--lab-config', lab.config], { cwd: lab.dir });
    expect(x.code).toBe(3);
    expect(x.stderr).toContain('GATE_EXPIRED');
    expect(total(await counters(sim))).toBe(before);
  }, 120_000);
});

describe('G restarts with a held send against an appliance', () => {
  it('g-restart-executing and g-restart-rolling-back: three owner pauses (NOT_APPLIED, NOT_APPLIED, release), zero resends, exactly as found', async () => {
    const sim = await startSim(root, sims, 'g', simData(aliases()));
    const { lab, ownerKey } = await ownerLab('g', sim);
    const receipt = ownerSigns(lab, (await requestGate(lab, 'g-restart-executing,g-restart-rolling-back')).pending_request);
    const report = join(lab.dir, 'report');
    const args = ['--json', '--report-dir', report];
    // 1: the held forward never reached the appliance; the restarted worker reconciles, the owner decides.
    const first = await runCli(
      [
        '--scenario',
        'g-restart-executing',
        '--scenario',
        'g-restart-rolling-back',
        '--lab-config',
        lab.config,
        '--gate-receipt',
        receipt,
        ...args,
      ],
      { cwd: lab.dir },
    );
    const p1 = expectPause(first, 'g-restart-executing', 'reconciliation', 'NOT_APPLIED', ownerKey);
    expect(aliasWrites(await counters(sim))).toBe(0);
    ownerAnswers(p1, ownerKey, 'NOT_APPLIED');
    const resume = () => runCli(['--resume', p1.run_id, '--lab-config', lab.config, ...args], { cwd: lab.dir });
    // 2: g-restart-executing ends FAILED with nothing sent; g-restart-rolling-back runs up to its own decision.
    const second = await resume();
    const p2 = expectPause(second, 'g-restart-rolling-back', 'reconciliation', 'NOT_APPLIED', ownerKey);
    expect(p2.run_id).toBe(p1.run_id);
    const [gExec] = jsonLines(second.stdout);
    expect(gExec).toMatchObject({
      id: 'g-restart-executing',
      ok: true,
      reconciled_on_restart: 1,
      sends: { forward: 0, rollback: 0, orchestration: 0 },
    });
    expect(gExec?.states).toEqual(['PREPARED', 'EXECUTING', 'RECONCILIATION', 'FAILED']);
    expect(aliasWrites(await counters(sim))).toBe(1);
    ownerAnswers(p2, ownerKey, 'NOT_APPLIED');
    // 3: resolved NOT_APPLIED → ROLLBACK_FAILED with zero sends; the release of the target is the owner's too.
    const third = await resume();
    const p3 = expectPause(third, 'g-restart-rolling-back', 'release', null, ownerKey);
    expect(aliasWrites(await counters(sim))).toBe(1);
    ownerAnswers(p3, ownerKey, null);
    // 4: released, B → A by an orchestration contract (one send); the report covers both scenarios.
    const last = await resume();
    expect(last.code, last.stderr).toBe(0);
    const [gRb, summary] = jsonLines(last.stdout);
    expect(gRb).toMatchObject({
      id: 'g-restart-rolling-back',
      ok: true,
      reconciled_on_restart: 1,
      sends: { forward: 1, rollback: 0, orchestration: 1 },
      final_target_matches: true,
    });
    expect(summary).toMatchObject({ summary: { passed: 2, failed: 0 }, closing: { exactly_as_found: true } });
    expect(aliasWrites(await counters(sim))).toBe(2);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test-only access to the report JSON
    const json = JSON.parse(readFileSync(join(report, 'report.json'), 'utf8')) as Record<string, any>;
    expect(json.appliance).toMatchObject({ run_id: p1.run_id, owner_pauses: 3 });
    expect(json.scenarios.map((s: { id: string; ok: boolean }) => [s.id, s.ok])).toEqual([
      ['g-restart-executing', true],
      ['g-restart-rolling-back', true],
    ]);
    expect(existsSync(join(lab.dir, `lab-run-${p1.run_id}`))).toBe(false);
  }, 300_000);
});
