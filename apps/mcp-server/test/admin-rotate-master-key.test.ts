// `pfsense-mcp admin rotate master-key` through the BUILT program, and its crash matrix with real processes: a
// child runs the real rotation on a copy of one write directory and SIGKILLs itself after each durable step;
// then the built `admin audit verify` (which settles the interrupted rotation first) must find everything
// readable under exactly one key — the old one before the commit point, the new one from it on — and the
// VERIFIED contract made before the rotation must still roll back (one PATCH) through `admin rollback`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROTATION_STEPS, currentProcessOwner } from '@pfsense-mcp/contract-store';
import type { RotationStep } from '@pfsense-mcp/contract-store';
import { startSimulator, type RunningSimulator } from '@pfsense-mcp/pfsense-sim';
import { buildChildScript, runChild } from '@pfsense-mcp/test-support';
import type { BuiltChild, ChildResult } from '@pfsense-mcp/test-support';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SIM_DATA } from './support/admin-driver.js';
import { connectBuilt, ensureBuilt, runBuilt } from './support/built-server.js';
import { confirmAndRun, setUpDriverHost } from './support/driver-host.js';
import { runAdminAsync } from './support/run-admin.js';
import type { ProgramRun as Run } from './support/run-program.js';
import { until } from './support/until.js';
import { WRITE_TOOL } from './support/write-result.js';

vi.setConfig({ testTimeout: 120_000 });
const ALIAS_PATH = '/api/v2/firewall/alias';
const CHANGED = 'set before the rotation';
const root = mkdtempSync(join(tmpdir(), 'admin-rotate-'));
let sim: RunningSimulator;
let keyFile: string;
let child: BuiltChild;
let base: string;
let contractId: string;

/** Asynchronous: the simulator lives in this process and must keep answering while the child runs. */
const admin = (args: readonly string[]): Promise<Run> =>
  runAdminAsync(args, { PFSENSE_URL: sim.url, PFSENSE_API_KEY_FILE: keyFile, PFSENSE_ALLOW_HTTP_LOOPBACK: 'true' });

async function ok(args: readonly string[]): Promise<Run> {
  const r = await admin(args);
  expect(r.status, `${r.stderr} ${r.stdout}`).toBe(0);
  return r;
}

/** The appliance back in the state the contract verified (the rollback refuses anything else). */
async function applianceAsVerified(): Promise<void> {
  sim.control.resetData();
  const r = await fetch(`${sim.url}${ALIAS_PATH}`, {
    method: 'PATCH',
    headers: { 'X-API-Key': sim.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ id: 0, descr: CHANGED }),
  });
  expect(r.status).toBe(200);
  sim.control.resetCounters();
}

beforeAll(async () => {
  ensureBuilt();
  sim = await startSimulator({ data: SIM_DATA });
  keyFile = join(root, 'api-key');
  writeFileSync(keyFile, `${sim.apiKey}\n`, { mode: 0o600 });
  child = await buildChildScript(join(import.meta.dirname, 'fixtures', 'rotate-crash-child.ts'), 'mcp-server-rotate-child');
  // One write directory with a VERIFIED contract (authorization consumed, artifacts encrypted), copied per case.
  base = join(root, 'base');
  const host = await setUpDriverHost(admin, sim, base, join(root, 'operator-keys'));
  try {
    const r3 = await confirmAndRun(admin, host, 'LAN_SERVERS', CHANGED);
    expect(r3.status).toBe('verified');
    contractId = r3.contractId ?? '';
  } finally {
    host.driver.close();
  }
}, 180_000);
afterAll(async () => {
  child?.remove();
  await sim?.close();
  rmSync(root, { recursive: true, force: true });
});

function copyOfBase(name: string): string {
  const dir = join(root, name);
  execFileSync('cp', ['-a', base, dir]);
  return dir;
}

/** Files a settled rotation never leaves behind. */
function leftovers(dir: string): string[] {
  return ['keys', 'store', 'anchors'].flatMap((d) =>
    readdirSync(join(dir, d))
      .filter((n) => n.includes('.next') || n.includes('journal'))
      .map((n) => `${d}/${n}`),
  );
}

function anchorEpoch(dir: string, name: string): number {
  const mark = JSON.parse(readFileSync(join(dir, 'anchors', name), 'utf8')) as { key_epoch?: number };
  return mark.key_epoch ?? 1;
}

/** After the settle: both stores and anchors at `epoch`, and the VERIFIED contract still rolls back (one PATCH). */
async function expectUsableAt(dir: string, epoch: number): Promise<void> {
  expect(leftovers(dir)).toEqual([]);
  expect(anchorEpoch(dir, 'contracts.anchor')).toBe(epoch);
  expect(anchorEpoch(dir, 'consumption.anchor')).toBe(epoch);
  await applianceAsVerified();
  const rolled = await ok(['rollback', contractId, '--dir', dir, '--json']);
  expect(rolled.json).toMatchObject({ ok: true, contract_id: contractId, state: 'ROLLED_BACK' });
  expect(sim.control.count(ALIAS_PATH, 'PATCH')).toBe(1);
}

describe('admin rotate master-key', () => {
  it('rotates (epoch 1 -> 2), prints counts and never a key; the old key opens nothing; refused while a server holds DIR', async () => {
    const dir = copyOfBase('plain');
    const oldKey = readFileSync(join(dir, 'keys', 'master.key'), 'utf8');
    const r = await ok(['rotate', 'master-key', '--dir', dir, '--json']);
    expect(r.json).toMatchObject({ ok: true, old_epoch: 1, new_epoch: 2, anchors_rewritten: 2, artifacts_reencrypted: 3 });
    expect(r.json['contract_rows_remaced']).toBeGreaterThan(3);
    expect(r.json['consumption_rows_remaced']).toBeGreaterThanOrEqual(2);
    const newKey = readFileSync(join(dir, 'keys', 'master.key'), 'utf8');
    expect(newKey).not.toBe(oldKey);
    for (const key of [oldKey, newKey]) expect(r.stdout + r.stderr).not.toContain(key.split(' ')[1]?.trim());
    const shown = (await ok(['status', '--dir', dir, '--all', '--json'])).json;
    expect(shown['key_epoch']).toBe(2);
    const status = shown['contracts'] as Array<Record<string, unknown>>;
    expect(status.find((c) => c['contract_id'] === contractId)).toMatchObject({ state: 'VERIFIED' });
    await expectUsableAt(dir, 2);
    await ok(['audit', 'verify', '--dir', dir]);

    const readable = await ok(['rotate', 'master-key', '--dir', dir]);
    expect(readable.stdout).toContain('key epoch 2 -> 3');
    expect(readable.stdout + readable.stderr).not.toContain(
      readFileSync(join(dir, 'keys', 'master.key'), 'utf8')
        .split(' ')[1]
        ?.trim(),
    );

    // The old key file put back is refused by every opener (a mix of epochs is never used).
    writeFileSync(join(dir, 'keys', 'master.key'), oldKey, { mode: 0o600 });
    const refused = await admin(['audit', 'verify', '--dir', dir, '--json']);
    expect(refused.status).not.toBe(0);

    const held = copyOfBase('held');
    writeFileSync(join(held, `.server-${process.pid}.lock`), JSON.stringify(currentProcessOwner()), { mode: 0o600 });
    const before = readFileSync(join(held, 'keys', 'master.key'), 'utf8');
    const inUse = await admin(['rotate', 'master-key', '--dir', held, '--json']);
    expect(inUse.status).toBe(1);
    expect(inUse.json['error']).toMatchObject({ code: 'WRITE_DIR_IN_USE' });
    expect(readFileSync(join(held, 'keys', 'master.key'), 'utf8')).toBe(before);
    expect(existsSync(join(held, '.maintenance.lock'))).toBe(false);
  });

  it('the server start settles an interrupted rotation (--check-config only reports it) and offers the write', async () => {
    const dir = copyOfBase('server-settles');
    const run = await runChild(child.script, 'ROTATE_CHILD_CONFIG', { dir, crashAfter: 'contracts-swapped' });
    expect(run.signal, run.stderr).toBe('SIGKILL');
    const env = {
      PFSENSE_URL: sim.url,
      PFSENSE_API_KEY_FILE: keyFile,
      PFSENSE_ALLOW_HTTP_LOOPBACK: 'true',
      PFSENSE_PROFILE: 'write_protected',
      PFSENSE_WRITE_DIR: dir,
    };
    const check = await runBuilt(env, ['--check-config']);
    expect(check.code).toBe(1);
    expect(check.stdout + check.stderr).toContain('KEY_ROTATION_PENDING');
    expect(existsSync(join(dir, 'keys', 'rotation.journal'))).toBe(true);
    const server = await connectBuilt(env);
    try {
      await until(() => !existsSync(join(dir, 'keys', 'rotation.journal')));
      const tools = await server.client.listTools();
      expect(tools.tools.map((t) => t.name)).toContain(WRITE_TOOL);
    } finally {
      await server.close();
    }
    expect(leftovers(dir)).toEqual([]);
    expect(anchorEpoch(dir, 'consumption.anchor')).toBe(2);
  });

  describe('SIGKILL after each step: readable under the old key or the new one, never neither', () => {
    const committedAt = ROTATION_STEPS.indexOf('committed');
    interface Case {
      readonly dir: string;
      readonly oldKey: string;
      readonly run: ChildResult;
      readonly journalAfterKill: boolean;
      readonly keyAfterKill: string;
      readonly verified: Run;
    }
    const results = new Map<RotationStep, Case>();
    beforeAll(async () => {
      // The kills and the settling `audit verify` runs go in parallel (one small store each, no appliance); the
      // rollbacks then run one by one against the one simulator.
      await Promise.all(
        ROTATION_STEPS.map(async (step) => {
          const dir = copyOfBase(`crash-${step}`);
          const oldKey = readFileSync(join(dir, 'keys', 'master.key'), 'utf8');
          const run = await runChild(child.script, 'ROTATE_CHILD_CONFIG', { dir, crashAfter: step });
          const journalAfterKill = existsSync(join(dir, 'keys', 'rotation.journal'));
          const keyAfterKill = readFileSync(join(dir, 'keys', 'master.key'), 'utf8');
          results.set(step, {
            dir,
            oldKey,
            run,
            journalAfterKill,
            keyAfterKill,
            verified: await admin(['audit', 'verify', '--dir', dir, '--json']),
          });
        }),
      );
    }, 180_000);

    for (const [i, step] of ROTATION_STEPS.entries()) {
      const committed = i >= committedAt;
      it(`after ${step}: ${committed ? 'completed at epoch 2' : 'rolled back to epoch 1'}`, async () => {
        const { dir, oldKey, run, journalAfterKill, keyAfterKill, verified } = results.get(step) as Case;
        expect(run.signal, run.stderr).toBe('SIGKILL');
        expect(journalAfterKill).toBe(true);
        expect(keyAfterKill === oldKey).toBe(!committed);
        // The settle (rolled back or completed) and then every row, both chains and both anchors verified.
        expect(verified.status, `${verified.stderr} ${verified.stdout}`).toBe(0);
        expect(verified.json).toMatchObject({ ok: true });
        expect(verified.stderr).toContain(committed ? 'rotation was completed' : 'rotation was rolled back');
        expect(readFileSync(join(dir, 'keys', 'master.key'), 'utf8') === oldKey).toBe(!committed);
        await expectUsableAt(dir, committed ? 2 : 1);
      });
    }
  });
});
