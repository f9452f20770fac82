// The closed command line of the built program: help and list, and every refusal (exit 2, nothing started,
// no report directory created). Only scenario ids — and the report directory's path — are accepted.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCENARIO_IDS, UsageError, parseCliArgs } from '../src/index.js';
import { runCli } from './support/run-cli.js';

let cwd: string;
beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'lab-cli-'));
});
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

describe('parseCliArgs', () => {
  it('accepts ids, --all, --json and --report-dir (also as --flag=value), and keeps the registry order', () => {
    expect(parseCliArgs(['--scenario', 'g-restart-executing', '--scenario=ordinary', '--json', '--report-dir', 'out'])).toEqual({
      kind: 'run',
      ids: ['ordinary', 'g-restart-executing'],
      json: true,
      reportDir: 'out',
      lab: null,
    });
    expect(parseCliArgs(['--all', '--lab-config', 'lab.json', '--gate-receipt=r.json'])).toEqual({
      kind: 'run',
      ids: [...SCENARIO_IDS],
      json: false,
      reportDir: null,
      lab: { configFile: 'lab.json', receiptFile: 'r.json' },
    });
    expect(parseCliArgs(['--resume', 'ab'.repeat(16), '--lab-config', 'lab.json', '--json'])).toEqual({
      kind: 'resume',
      configFile: 'lab.json',
      runId: 'ab'.repeat(16),
      json: true,
      reportDir: null,
    });
    expect(
      parseCliArgs(['--request-gate', '--lab-config', 'lab.json', '--scenarios', 'd3-conflict-after-verified,ordinary', '--json']),
    ).toEqual({
      kind: 'request-gate',
      configFile: 'lab.json',
      ids: ['ordinary', 'd3-conflict-after-verified'],
      json: true,
    });
    expect(parseCliArgs(['--all'])).toMatchObject({ kind: 'run', ids: [...SCENARIO_IDS], json: false, reportDir: null });
    expect(parseCliArgs(['--list', '--json'])).toEqual({ kind: 'list', json: true });
    expect(parseCliArgs(['--help', '--all'])).toEqual({ kind: 'help' });
  });

  it.each([
    [['--scenario', 'ordinary', '--endpoint', '/api/v2/firewall/alias'], /unknown flag "--endpoint"/],
    [['--scenario', 'ordinary', '--method=PATCH'], /unknown flag "--method"/],
    [['--scenario', 'ordinary', '--description', 'x'], /unknown flag "--description"/],
    [['--scenario', 'ordinary', '--fault', 'timeout'], /unknown flag "--fault"/],
    [['--scenario', 'ordinary', '--store', '/tmp/s'], /unknown flag "--store"/],
    [['--scenario', 'ordinary', '--alias', 'LAN'], /unknown flag "--alias"/],
    [['--scenario', 'no-such-scenario'], /unknown scenario "no-such-scenario"/],
    [['--scenario'], /--scenario needs a value/],
    [['--all', '--scenario', 'ordinary'], /exclude each other/],
    [[], /choose --scenario ID/],
    [['ordinary'], /unexpected argument "ordinary"/],
    [['--json=yes', '--all'], /--json takes no value/],
    [['--list', '--all'], /--list takes no scenario/],
    [['--all', '--report-dir', 'a', '--report-dir', 'b'], /given twice/],
    [['--all', '--lab-config', 'lab.json'], /needs both --lab-config FILE and --gate-receipt FILE/],
    [['--all', '--gate-receipt', 'r.json'], /needs both --lab-config FILE and --gate-receipt FILE/],
    [['--request-gate', '--scenarios', 'ordinary'], /--request-gate needs --lab-config FILE/],
    [['--request-gate', '--lab-config', 'lab.json'], /--request-gate needs --scenarios/],
    [['--request-gate', '--lab-config', 'lab.json', '--scenarios', 'ordinary,nope'], /unknown scenario "nope"/],
    [['--all', '--scenarios', 'ordinary'], /--scenarios belongs to --request-gate/],
    [['--resume', 'run-1', '--lab-config', 'lab.json'], /run id printed when the run stopped/],
    [['--resume', 'a'.repeat(32)], /--resume needs --lab-config FILE/],
    [['--resume', 'a'.repeat(32), '--lab-config', 'lab.json', '--scenario', 'ordinary'], /--resume takes only/],
    [['--resume', 'a'.repeat(32), '--lab-config', 'lab.json', '--gate-receipt', 'r.json'], /--resume takes only/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseCliArgs(argv)).toThrow(UsageError);
    expect(() => parseCliArgs(argv)).toThrow(message);
  });

  it('never echoes more than a short, printable piece of an unknown token', () => {
    try {
      parseCliArgs([`--${'x'.repeat(500)}\u0007`]);
      expect.unreachable();
    } catch (e) {
      expect((e as Error).message.length).toBeLessThan(120);
      expect((e as Error).message).not.toContain('\u0007');
    }
  });
});

describe('the built program', () => {
  it('--help explains every flag, the exit codes and the test-only keys', async () => {
    const r = await runCli(['--help'], { cwd });
    expect(r.code).toBe(0);
    for (const flag of [
      '--scenario',
      '--all',
      '--json',
      '--report-dir',
      '--list',
      '--lab-config',
      '--gate-receipt',
      '--request-gate',
      '--scenarios',
      '--resume',
      'reconciliation_public_key_file',
      "4   stopped for the owner's signature",
      '--help',
      'nx run lab-runner:run',
      'throw-away',
      '130',
    ]) {
      expect(r.stdout).toContain(flag);
    }
  });

  it('--list prints every scenario with its expected counts; --list --json one line each', async () => {
    const text = await runCli(['--list'], { cwd });
    expect(text.code).toBe(0);
    for (const id of SCENARIO_IDS) expect(text.stdout).toContain(id);
    expect(text.stdout).toContain('sends f1 r1 o0');
    const json = await runCli(['--list', '--json'], { cwd });
    const lines = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; sends: object; states: string[] });
    expect(lines.map((l) => l.id)).toEqual([...SCENARIO_IDS]);
    expect(lines[0]).toMatchObject({
      sends: { forward: 1, rollback: 1, orchestration: 0 },
      states: ['PREPARED', 'EXECUTING', 'VERIFIED', 'ROLLING_BACK', 'ROLLED_BACK'],
    });
  });

  it.each([
    [['--scenario', 'ordinary', '--endpoint', '/api/v2/firewall/alias']],
    [['--scenario', 'nope']],
    [['--all', '--lab-config', 'x.json']],
    [[]],
  ])('refuses %j with exit 2, starts nothing and creates no report directory', async (argv) => {
    const before = readdirSync(cwd);
    const r = await runCli(argv, { cwd });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^pfsense-mcp-lab: /);
    expect(readdirSync(cwd)).toEqual(before);
  });

  it('refuses an existing non-empty --report-dir (exit 2) and leaves it untouched', async () => {
    const dir = join(cwd, 'taken');
    mkdirSync(dir);
    writeFileSync(join(dir, 'keep.txt'), 'x');
    const r = await runCli(['--scenario', 'ordinary', '--report-dir', dir], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('not empty');
    expect(readdirSync(dir)).toEqual(['keep.txt']);
  });
});
