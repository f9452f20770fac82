// Every section of docs/OPERATIONS.md that `admin status` can point to exists in the runbook, and a real status
// output (built program) names only sections that exist.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNBOOK, RUNBOOK_ANCHORS } from '../src/admin/runbook-anchors.js';
import { ensureBuilt, serverMain, workspaceRoot } from './support/built-server.js';

const doc = readFileSync(RUNBOOK, 'utf8');
const ids = new Set([...doc.matchAll(/<a id="([a-z0-9-]+)"><\/a>/g)].map((m) => m[1]));
const root = mkdtempSync(join(tmpdir(), 'runbook-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
beforeAll(() => ensureBuilt(), 120_000);

describe('the runbook anchors', () => {
  it('the runbook is named by the absolute path of the copy beside the program (the package ships docs/)', () => {
    expect(RUNBOOK).toBe(join(workspaceRoot, 'docs', 'OPERATIONS.md'));
  });

  it('every anchor status may print is a section of docs/OPERATIONS.md, and each link inside the doc resolves', () => {
    for (const anchor of Object.values(RUNBOOK_ANCHORS)) expect(ids.has(anchor), anchor).toBe(true);
    for (const m of doc.matchAll(/\]\(#([a-z0-9-]+)\)/g)) expect(ids.has(m[1]), m[1]).toBe(true);
  });

  it('a real `admin status` names only sections that exist', () => {
    const dir = join(root, 'w');
    const run = (args: readonly string[]) =>
      spawnSync(process.execPath, [serverMain, 'admin', ...args], {
        encoding: 'utf8',
        env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
        timeout: 60_000,
      });
    expect(run(['init', '--dir', dir]).status).toBe(0);
    const status = run(['status', '--dir', dir]);
    expect(status.status, status.stderr).toBe(0);
    expect(status.stdout).toContain(`runbook for each situation: ${RUNBOOK}`);
    for (const m of status.stdout.matchAll(/docs\/OPERATIONS\.md#([a-z0-9-]+)/g)) expect(ids.has(m[1]), m[1]).toBe(true);
  });
});
