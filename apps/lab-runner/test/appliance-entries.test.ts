// The entries scenarios against a disposable appliance (a separately started simulator described by a lab config,
// so no simulator control and no counters on the runner's side): they run after a description scenario on the one
// candidate (whose staged write the runner applies first), each block applied and verified in pf, each rollback
// signed, the executor's apply timing in the report; the appliance exactly as found with nothing pending after.
// A candidate no enabled rule uses is refused by preflight, before any change.
import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './support/run-cli.js';
import { CANDIDATE, aliases, counters, labDir, ownerSigns, requestGate, simData, startSim } from './support/appliance-lab.js';

const root = mkdtempSync(join(tmpdir(), 'lab-appliance-entries-'));
chmodSync(root, 0o700);
const sims: ChildProcess[] = [];
afterAll(() => {
  for (const c of sims) c.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

const RULES = '/api/v2/firewall/rules';
const blockRule = (enabled: boolean) => ({
  [RULES]: [
    { tracker: 1_780_000_001, type: 'block', interface: ['WAN'], source: CANDIDATE, destination: 'any', disabled: !enabled, descr: 'drop' },
  ],
  '/api/v2/diagnostics/tables': [{ name: CANDIDATE, entries: ['10.71.0.1'] }],
});
const SCENARIOS = ['ordinary', 'entries-ordinary', 'entries-foreign-pending', 'entries-rollback-after-verified'];

describe('the entries scenarios against a disposable appliance', () => {
  it('after a description scenario on the same candidate: every block verified in pf and rolled back signed, apply timing reported, nothing left pending', async () => {
    const sim = await startSim(root, sims, 'entries', simData(aliases(), blockRule(true)));
    const lab = labDir(root, 'entries', sim);
    const receipt = ownerSigns(lab, (await requestGate(lab, SCENARIOS.join(','))).pending_request);
    const report = join(lab.dir, 'report');
    const before = await counters(sim);
    const args = SCENARIOS.flatMap((id) => ['--scenario', id]);
    const r = await runCli([...args, '--lab-config', lab.config, '--gate-receipt', receipt, '--json', '--report-dir', report], {
      cwd: lab.dir,
    });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.slice(0, 4).map((l) => [l.id, l.ok, l.final_target_matches])).toEqual(SCENARIOS.map((id) => [id, true, true]));
    // The description's staged write was applied by the runner before the first block; the blocks apply themselves.
    expect(lines[4]).toMatchObject({ summary: { passed: 4, failed: 0 }, closing: { exactly_as_found: true, pending_subsystems: [] } });
    const after = await counters(sim);
    // ordinary 2, entries-ordinary 2, foreign-pending 2 + 2 orchestration, rollback-after-verified 2.
    expect((after['PATCH /api/v2/firewall/alias'] ?? 0) - (before['PATCH /api/v2/firewall/alias'] ?? 0)).toBe(10);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test-only access to the report JSON
    const json = JSON.parse(readFileSync(join(report, 'report.json'), 'utf8')) as Record<string, any>;
    const timeline = (id: string) =>
      (json.scenarios as { id: string; timeline: { action: string; pf?: unknown }[] }[]).find((s) => s.id === id)?.timeline ?? [];
    expect(timeline('entries-ordinary').map((e) => e.action)).toContain(
      "applied the run's own staged description changes (pending since an earlier scenario)",
    );
    for (const id of SCENARIOS.slice(1)) {
      expect(
        timeline(id)
          .filter((e) => e.action === 'forward executed')
          .at(-1)?.pf,
        id,
      ).toMatchObject({
        call_ms: expect.any(Number),
        pending: false,
        table_holds_block: true,
      });
      expect(timeline(id).find((e) => e.action === 'rollback executed')?.pf, id).toMatchObject({
        pending: false,
        table_holds_block: false,
      });
    }
  });

  it('preflight refuses an entries scenario on a candidate no enabled rule uses (exit 3), before any change', async () => {
    const sim = await startSim(root, sims, 'unused', simData(aliases(), blockRule(false)));
    const lab = labDir(root, 'unused', sim);
    const receipt = ownerSigns(lab, (await requestGate(lab, 'entries-ordinary')).pending_request);
    const before = await counters(sim);
    const r = await runCli(['--scenario', 'entries-ordinary', '--lab-config', lab.config, '--gate-receipt', receipt], { cwd: lab.dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('PREFLIGHT_CANDIDATE_NOT_BLOCKABLE');
    const after = await counters(sim);
    for (const write of ['PATCH /api/v2/firewall/alias', 'POST /api/v2/firewall/apply'])
      expect(after[write] ?? 0, write).toBe(before[write] ?? 0);
  });
});
