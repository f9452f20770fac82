// Ctrl-C mid-scenario on the built program: the test-only pause holds the runner after the subject's forward
// (VERIFIED, B on the appliance); SIGINT then stops every further scenario step, the runner rolls the subject
// back through the sealed executor (the candidate is A again, proven by a fresh read) and still writes the
// report; the exit code is 130.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/run-cli.js';

let cwd: string;
beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'lab-interrupt-'));
});
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

describe('Ctrl-C mid-scenario', () => {
  it('stops after the current step, restores A through the sealed path, writes the report, exits 130', async () => {
    const reportDir = join(cwd, 'report');
    let sent = false;
    const r = await runCli(['--scenario', 'ordinary', '--json', '--report-dir', reportDir], {
      cwd,
      env: { PFSENSE_MCP_LAB_TEST_PAUSE_AFTER: 'forward' },
      onStderr: (all, child) => {
        if (!sent && all.includes('paused after forward (test hook)')) {
          sent = true;
          child.kill('SIGINT');
        }
      },
    });
    expect(sent).toBe(true);
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('interrupted');
    const [line, summary] = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(summary).toEqual({ summary: { passed: 0, failed: 1 } });
    expect(line).toMatchObject({
      id: 'ordinary',
      ok: false,
      interrupted: true,
      final_target_matches: true,
      // the forward's send, then the recovery's one sealed rollback send — nothing else
      sends: { forward: 1, rollback: 1, orchestration: 0 },
      appliance_writes: 2,
      left: { action: 'sealed-rollback', subject_state: 'ROLLED_BACK', candidate_is_original: true },
    });
    expect(line.failures[0]).toContain('INTERRUPTED');
    const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8'));
    expect(report.interrupted).toBe(true);
    expect(report.scenarios[0].timeline.map((e: { action: string }) => e.action)).toContain('recovery: sealed rollback of the subject');
    // the step after the pause (the plan's own rollback) never ran
    expect(report.scenarios[0].timeline.map((e: { action: string }) => e.action)).not.toContain('rollback executed');
    expect(statSync(join(reportDir, 'report.html')).mode & 0o777).toBe(0o600);
  });

  it("between a G scenario's kill and its restart: the rollback is in RECONCILIATION, so it says exactly what it left", async () => {
    const reportDir = join(cwd, 'report-g');
    let sent = false;
    const r = await runCli(['--scenario', 'g-restart-rolling-back', '--json', '--report-dir', reportDir], {
      cwd,
      env: { PFSENSE_MCP_LAB_TEST_PAUSE_AFTER: 'restart' },
      onStderr: (all, child) => {
        if (!sent && all.includes('paused after restart (test hook)')) {
          sent = true;
          child.kill('SIGINT');
        }
      },
    });
    expect(sent).toBe(true);
    expect(r.code).toBe(130);
    const [line] = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    // B is on the appliance and the contract holds the target until the owner decides: nothing is sent.
    expect(line).toMatchObject({
      id: 'g-restart-rolling-back',
      interrupted: true,
      final_target_matches: false,
      sends: { forward: 1, rollback: 0, orchestration: 0 },
      appliance_writes: 1,
      left: { action: 'left-as-is', subject_state: 'RECONCILIATION', candidate_is_original: false },
    });
    expect(line.left.reason).toContain('holds the target');
    expect(JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')).scenarios[0].left.action).toBe('left-as-is');
  });
});
