// `npm run demo` as a user runs it: the real script, the built server, signer and simulator as child processes.
// The transcript (--json --faults) is checked step by step; a plain run (no terminal: no colour) is interrupted
// with Ctrl-C and must leave nothing behind: no temp dir, no simulator process.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WORKSPACE_ROOT } from './workspace-root.js';

const DEMO = join(WORKSPACE_ROOT, 'tools', 'scripts', 'demo.mjs');
// Many process starts (server, admin, signer) on a shared 2-core machine; the bound is on process starts.
const DEMO_TIMEOUT_MS = 300_000;

type Line = Record<string, unknown>;
const parse = (stdout: string): Line[] =>
  stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Line);
/** Pids of live processes whose command line contains `text` (Linux /proc). */
function processesNaming(text: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/u.test(e))) {
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * The block step's common facts: the review showed the `+` line and the block rule; the staged description change was
 * applied first; pf's table held the address once verified and is as before after the signed rollback.
 */
function blockShown(block: Line | undefined): boolean {
  expect(block).toMatchObject({
    review_shows_add: true,
    review_shows_rule: true,
    pending_before: ['aliases'],
    table_before: ['198.51.100.9'],
    table_blocked: ['198.51.100.9', '203.0.113.7'],
    table_after: ['198.51.100.9'],
  });
  return true;
}

describe('npm run demo', () => {
  it(
    '--json --faults: READ, host setup, the write to verified, the block with its response lost (signed APPLIED) then rolled back signed, the lost response reconciled with one PATCH; all removed after',
    () => {
      const r = spawnSync(process.execPath, [DEMO, '--json', '--faults'], { encoding: 'utf8', timeout: DEMO_TIMEOUT_MS });
      expect(r.status, r.stderr).toBe(0);
      const lines = parse(r.stdout);
      const start = lines.find((l) => l['event'] === 'start');
      const sim = lines.find((l) => l['event'] === 'simulator');
      const byName = new Map(lines.filter((l) => typeof l['name'] === 'string').map((l) => [l['name'], l]));
      expect(byName.get('read')).toMatchObject({ profile: 'auditor', write: 0 });
      expect(byName.get('read')?.['read_only']).toBeGreaterThan(50);
      expect(byName.get('host_setup')).toMatchObject({ roles: ['plan-authorization', 'confirmation', 'reconciliation'] });
      // The exchange-folder flow: two `approve` runs and two typed codes, the second answered while a call waits.
      expect(byName.get('write')).toMatchObject({
        states: ['requested', 'verified'],
        approve_runs: 2,
        typed_codes: 2,
        read_back: 'Servers (reviewed by the operator)',
        patches: 1,
      });
      expect(byName.get('operations')).toMatchObject({ status_state: 'VERIFIED', rollback: 'ROLLED_BACK', patches: 1 });
      expect(byName.get('operations')?.['audit_rows']).toBeGreaterThan(0);
      expect(blockShown(byName.get('block'))).toBe(true);
      expect(byName.get('faults')).toMatchObject({
        states: ['reconciliation_required', 'VERIFIED', 'verified'],
        observed: 'Web (answer lost on the way back)',
        patches: 1,
      });
      for (const l of byName.values()) expect(typeof l['ms']).toBe('number');
      // Every command it runs is printed, as an operator would type it: the transcript is a template.
      const commands = lines.filter((l) => typeof l['command'] === 'string').map((l) => String(l['command']));
      expect(commands.some((c) => /^pfsense-mcp admin init --dir \S+ --exchange \S+$/u.test(c))).toBe(true);
      expect(commands.some((c) => c.startsWith('pfsense-mcp-signer keygen --role operator --out '))).toBe(true);
      expect(commands.some((c) => c.startsWith('pfsense-mcp admin trust --dir ') && c.includes(' --bundle '))).toBe(true);
      // Two for the description, two for the block, one for its rollback.
      expect(commands.filter((c) => c.startsWith('pfsense-mcp-signer approve '))).toHaveLength(5);
      expect(commands.filter((c) => /^pfsense-mcp admin rollback ctr-\S+ --dir \S+$/u.test(c))).toHaveLength(3);
      // The block with its response lost: reconciliation_required, settled by a signed APPLIED; one PATCH for it.
      expect(byName.get('block')).toMatchObject({
        states: ['requested', 'reconciliation_required', 'VERIFIED'],
        forward_patches: 1,
        rollback_exits: [4, 0],
        rollback: 'ROLLED_BACK',
        patches: 2,
      });
      expect(lines.at(-1)).toMatchObject({ event: 'done' });
      expect(existsSync(String(start?.['workdir']))).toBe(false);
      expect(alive(Number(sim?.['pid']))).toBe(false);
    },
    DEMO_TIMEOUT_MS,
  );

  it(
    '--json: the block verified in pf and undone by the signed rollback (admin rollback exits 4, then 0); no faults step',
    () => {
      const r = spawnSync(process.execPath, [DEMO, '--json'], { encoding: 'utf8', timeout: DEMO_TIMEOUT_MS });
      expect(r.status, r.stderr).toBe(0);
      const lines = parse(r.stdout);
      const byName = new Map(lines.filter((l) => typeof l['name'] === 'string').map((l) => [l['name'], l]));
      expect([...byName.keys()]).toEqual(['read', 'host_setup', 'write', 'operations', 'block']);
      expect(byName.get('block')).toMatchObject({
        states: ['requested', 'verified'],
        forward_patches: 1,
        rollback_exits: [4, 0],
        rollback: 'ROLLED_BACK',
        patches: 2,
      });
      expect(blockShown(byName.get('block'))).toBe(true);
      const commands = lines.filter((l) => typeof l['command'] === 'string').map((l) => String(l['command']));
      expect(commands.filter((c) => c.startsWith('pfsense-mcp-signer approve '))).toHaveLength(5);
      expect(lines.at(-1)).toMatchObject({ event: 'done' });
    },
    DEMO_TIMEOUT_MS,
  );

  it('a bad argument is a usage error (exit 2)', () => {
    const r = spawnSync(process.execPath, [DEMO, '--nope'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('usage: npm run demo');
  });

  it(
    'plain text off a terminal (narrated, no colour codes); Ctrl-C mid-run: exit 130, the simulator stopped, the temp dir removed',
    async () => {
      const child = spawn(process.execPath, [DEMO], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.setEncoding('utf8');
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      // Interrupt once the host setup is done: the simulator and a server have run and the temp dir is full.
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (c: string) => {
          out += c;
          if (out.includes('3. The write')) resolve();
        });
        void exited.then(() => reject(new Error(`demo ended before the write: ${out}`)));
      });
      expect(out).not.toContain('\x1b[');
      expect(out).toContain('runs the signer on the same machine only because it is a demo');
      expect(out).toMatch(/1\. READ/u);
      const workdir = /Working in (\S+) /u.exec(out)?.[1] ?? '';
      expect(existsSync(workdir)).toBe(true);
      // The simulator's command line names its key file inside the work dir.
      expect(processesNaming(workdir).length).toBeGreaterThan(0);
      child.kill('SIGINT');
      expect(await exited).toBe(130);
      expect(out).toContain('interrupted');
      expect(existsSync(workdir)).toBe(false);
      expect(processesNaming(workdir)).toEqual([]);
    },
    DEMO_TIMEOUT_MS,
  );
});
