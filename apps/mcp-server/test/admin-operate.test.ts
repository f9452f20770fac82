// Black-box tests of the operating commands (`status`, `audit`, `artifacts`, `backup`, `expire`, `cancel`,
// `migrate`) through the BUILT program, beside a live write-path composition on the same write directory.
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPlanAuthorizationV2, encodeArtifact } from '@pfsense-mcp/authorization';
import { startSimulator, type RunningSimulator } from '@pfsense-mcp/pfsense-sim';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SIM_DATA } from './support/admin-driver.js';
import { ensureBuilt, serverMain } from './support/built-server.js';
import { installSigned, setUpDriverHost, type DriverHost } from './support/driver-host.js';
import { runAdmin } from './support/run-admin.js';
import type { ProgramRun as Run } from './support/run-program.js';

const SENTINEL = 'SENTINEL-DESCRIPTION-3b9f-do-not-print';
// Each test runs many real child processes (the built program, the signer): seconds each on a loaded machine.
vi.setConfig({ testTimeout: 240_000 });
const root = mkdtempSync(join(tmpdir(), 'admin-operate-'));
let sim: RunningSimulator;

beforeAll(async () => {
  ensureBuilt();
  sim = await startSimulator({ data: SIM_DATA });
}, 120_000);
afterAll(async () => {
  await sim.close();
  rmSync(root, { recursive: true, force: true });
});

const outputs: string[] = [];
/** `admin ARGS`; its output joins the sentinel scan at the end. */
function admin(args: readonly string[]): Run {
  const r = runAdmin(args);
  outputs.push(r.stdout, r.stderr);
  return r;
}

function ok(args: readonly string[]): Run {
  const r = admin(args);
  expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r;
}

let n = 0;
type Setup = DriverHost;

async function setup(): Promise<Setup> {
  n += 1;
  return setUpDriverHost(admin, sim, join(root, `w${n}`), join(root, `keys${n}`));
}

/** requested → signed authorization via `admin inbox add` → PREPARED (awaiting_confirmation). */
async function prepared(
  s: Setup,
  alias: string,
  description = `${SENTINEL} ${n}`,
): Promise<{ contractId: string; confirmationRequest: string }> {
  const r1 = await s.driver.request(alias, description);
  expect(r1.status).toBe('requested');
  await installSigned(admin, s, r1.pendingRequest?.file ?? null, s.plan);
  const r2 = await s.driver.request(alias, description);
  expect(r2.status).toBe('awaiting_confirmation');
  return { contractId: r2.contractId ?? '', confirmationRequest: r2.pendingRequest?.file ?? '' };
}

async function verified(s: Setup, alias: string, description = `${SENTINEL} ${n}`): Promise<string> {
  const p = await prepared(s, alias, description);
  await installSigned(admin, s, p.confirmationRequest, s.confirm);
  const r = await s.driver.request(alias, description);
  expect(r.status).toBe('verified');
  return p.contractId;
}

function refusal(r: Run, code: string, exit = 1): void {
  expect(r.status).toBe(exit);
  expect((r.json['error'] as { code: string }).code).toBe(code);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
}

describe('admin status', () => {
  it('shows each live contract, its MCP status, expiry and next step, the pending requests and the anchors — never the alias or description', async () => {
    const s = await setup();
    try {
      const p = await prepared(s, 'LAN_SERVERS');
      const v = await verified(s, 'WEB_PORTS');
      const r = ok(['status', '--dir', s.dir, '--json']);
      const rows = r.json['contracts'] as Array<Record<string, unknown>>;
      expect(rows.map((c) => [c['contract_id'], c['state'], c['mcp_status']])).toEqual([
        [p.contractId, 'PREPARED', 'awaiting_confirmation'],
        [v, 'VERIFIED', 'verified'],
      ]);
      expect(rows[0]?.['expires_at']).toEqual(expect.any(Number));
      expect(String(rows[0]?.['next_step'])).toContain('admin cancel');
      expect(String(rows[1]?.['next_step'])).toContain('admin rollback');
      expect(r.json['pending_requests']).toEqual([expect.objectContaining({ file: p.confirmationRequest, contract_id: p.contractId })]);
      expect(r.json['anchor']).toMatchObject({ in_step: true });
      const text = ok(['status', '--dir', s.dir]).stdout;
      expect(text).toContain(p.contractId);
      expect(text).toContain('awaiting_confirmation');
      expect(text).toContain('anchors: in step');
      // --show-targets (documented as sensitive) is the one view with alias names; kept out of the sentinel scan.
      const shown = runAdmin(['status', '--show-targets', '--dir', s.dir, '--json']);
      const named = shown.json['contracts'] as Array<Record<string, unknown>>;
      expect(named.map((c) => c['target_name'])).toEqual(['LAN_SERVERS', 'WEB_PORTS']);
      expect(shown.stdout).not.toContain(SENTINEL);
      // The names come from the store's own encrypted target identity, not from the outbox: gone files change nothing.
      for (const f of readdirSync(join(s.dir, 'outbox'))) rmSync(join(s.dir, 'outbox', f));
      const again = runAdmin(['status', '--show-targets', '--dir', s.dir, '--json']);
      expect(again.status, again.stderr).toBe(0);
      const renamed = again.json['contracts'] as Array<Record<string, unknown>>;
      expect(renamed.map((c) => c['target_name'])).toEqual(['LAN_SERVERS', 'WEB_PORTS']);
      expect(again.stdout).not.toContain(SENTINEL);
      for (const out of [r.stdout, text]) {
        expect(out).not.toContain(SENTINEL);
        expect(out).not.toContain('LAN_SERVERS');
        expect(out).not.toContain(s.plan.publicHex);
      }
    } finally {
      s.driver.close();
    }
  });
});

describe('admin cancel / expire', () => {
  it('cancel takes back a PREPARED contract (EXPIRED, audited) so the alias is free; refuses other states and unknown ids', async () => {
    const s = await setup();
    try {
      const p = await prepared(s, 'DMZ_HOSTS');
      const r = ok(['cancel', p.contractId, '--dir', s.dir, '--json']);
      expect(r.json).toEqual({ ok: true, contract_id: p.contractId, state: 'EXPIRED', outcome: 'CANCELLED' });
      refusal(admin(['cancel', '--dir', s.dir, p.contractId, '--json']), 'WRONG_STATE');
      refusal(admin(['cancel', '--dir', s.dir, 'no-such-contract', '--json']), 'UNKNOWN_CONTRACT');
      refusal(admin(['cancel', '--dir', s.dir, '--json']), 'USAGE', 2);
      const v = await verified(s, 'VPN_PEERS');
      refusal(admin(['cancel', '--dir', s.dir, v, '--json']), 'WRONG_STATE');
      // Not in the default view any more, in --all as EXPIRED; the same change can be asked for again at once.
      expect(
        (ok(['status', '--dir', s.dir, '--json']).json['contracts'] as unknown[]).map((c) => (c as { contract_id: string }).contract_id),
      ).not.toContain(p.contractId);
      const all = ok(['status', '--all', '--dir', s.dir, '--json']).json['contracts'] as Array<Record<string, unknown>>;
      expect(all.find((c) => c['contract_id'] === p.contractId)).toMatchObject({ state: 'EXPIRED', mcp_status: 'refused' });
      expect((await s.driver.request('DMZ_HOSTS', `${SENTINEL} ${n}`)).status).toBe('requested');
      expect(ok(['expire', '--dir', s.dir, '--json']).json).toEqual({ ok: true, expired: [] });
    } finally {
      s.driver.close();
    }
  });
});

describe('admin artifacts list / clean', () => {
  it('says what each file is; clean removes only dead files, keeps the live confirmation request, and grants no retry', async () => {
    const s = await setup();
    try {
      const p = await prepared(s, 'LAN_SERVERS', 'first change');
      const listed = ok(['artifacts', 'list', '--dir', s.dir, '--json']).json['artifacts'] as Array<Record<string, unknown>>;
      const byKind = (kind: string) => listed.filter((a) => a['kind'] === kind);
      expect(byKind('pfsense-mcp/authorization-request')).toEqual([expect.objectContaining({ box: 'outbox', condition: 'answered' })]);
      expect(byKind('pfsense-mcp/plan-authorization')).toEqual([expect.objectContaining({ box: 'inbox', condition: 'answered' })]);
      expect(byKind('pfsense-mcp/confirmation-request')).toEqual([
        expect.objectContaining({ box: 'outbox', condition: 'still-useful', contract_id: p.contractId }),
      ]);
      const dry = ok(['artifacts', 'clean', '--dry-run', '--dir', s.dir]);
      expect(dry.stdout.trim().split('\n')).toHaveLength(2);
      expect(dry.stdout).toMatch(/^would remove/m);
      const before = [...readdirSync(s.driver.layout.inboxDir), ...readdirSync(s.driver.layout.outboxDir)].sort();
      expect(before).toHaveLength(3);
      const cleaned = ok(['artifacts', 'clean', '--dir', s.dir, '--json']);
      expect((cleaned.json['removed'] as unknown[]).length).toBe(2);
      expect(readdirSync(s.driver.layout.inboxDir)).toEqual([]);
      expect(readdirSync(s.driver.layout.outboxDir)).toEqual([p.confirmationRequest]);
      // The consumed authorization stays consumed: the operation is exactly where it was.
      const again = await s.driver.request('LAN_SERVERS', 'first change');
      expect(again).toMatchObject({
        status: 'awaiting_confirmation',
        contractId: p.contractId,
        pendingRequest: { kind: 'confirmation', file: p.confirmationRequest },
      });
      expect(ok(['artifacts', 'clean', '--dir', s.dir]).stdout).toContain('nothing to remove');
    } finally {
      s.driver.close();
    }
  });

  it('finds blocking inbox files and says why; only --blocking removes them (a symlink, not its target)', async () => {
    const s = await setup();
    try {
      const inbox = s.driver.layout.inboxDir;
      writeFileSync(join(inbox, 'junk.json'), '{"not": "an artifact"}', { mode: 0o600 });
      const now = Date.now();
      const sign = (issued: number, expires: number, key = s.plan) =>
        encodeArtifact(
          createPlanAuthorizationV2(
            {
              planDigest: 'a'.repeat(64),
              steps: [{ step_id: 'step-1', execution_intent_digest: 'b'.repeat(64) }],
              riskClass: 'low',
              requestKeyId: 'e'.repeat(64),
              issuedAt: issued,
              expiresAt: expires,
            },
            key,
          ),
        );
      writeFileSync(join(inbox, 'wide.json'), sign(now, now + 600_000), { mode: 0o644 });
      chmodSync(join(inbox, 'wide.json'), 0o644);
      writeFileSync(join(inbox, 'old.json'), sign(now - 7_200_000, now - 3_600_000), { mode: 0o600 });
      writeFileSync(join(inbox, 'role.json'), sign(now, now + 600_000, s.confirm), { mode: 0o600 });
      writeFileSync(join(inbox, 'dup-a.json'), sign(now, now + 600_000), { mode: 0o600 });
      writeFileSync(join(inbox, 'dup-b.json'), sign(now + 1, now + 600_000), { mode: 0o600 });
      const target = join(root, `outside-${n}.json`);
      writeFileSync(target, sign(now, now + 600_000), { mode: 0o600 });
      symlinkSync(target, join(inbox, 'link.json'));
      const listed = ok(['artifacts', 'list', '--dir', s.dir, '--json']).json['artifacts'] as Array<Record<string, unknown>>;
      const why = Object.fromEntries(listed.map((a) => [a['file'], [a['condition'], a['blocking']]]));
      expect(why).toEqual({
        'dup-a.json': ['blocking', 'duplicate'],
        'dup-b.json': ['blocking', 'duplicate'],
        'junk.json': ['blocking', 'malformed'],
        'link.json': ['blocking', 'wrong-mode-or-owner'],
        'old.json': ['blocking', 'expired'],
        'role.json': ['blocking', 'wrong-role'],
        'wide.json': ['blocking', 'wrong-mode-or-owner'],
      });
      expect(ok(['artifacts', 'list', '--dir', s.dir]).stdout).toContain('BLOCKING (malformed)');
      expect(ok(['status', '--dir', s.dir, '--json']).json['inbox']).toMatchObject({ files: 7, blocking: 7 });
      // Plain clean removes only what can no longer move anything (the expired one).
      ok(['artifacts', 'clean', '--dir', s.dir]);
      expect(readdirSync(inbox).sort()).toEqual(['dup-a.json', 'dup-b.json', 'junk.json', 'link.json', 'role.json', 'wide.json']);
      const all = ok(['artifacts', 'clean', '--blocking', '--dir', s.dir, '--json']);
      expect((all.json['removed'] as unknown[]).length).toBe(6);
      expect(readdirSync(inbox)).toEqual([]);
      expect(existsSync(target)).toBe(true);
    } finally {
      s.driver.close();
    }
  });
});

describe('admin audit verify / export', () => {
  it('verifies rows, chain and anchor beside a running store; exports a keyless chain that detects edits', async () => {
    const s = await setup();
    let dbCopy: string;
    try {
      await verified(s, 'LAN_SERVERS');
      const r = ok(['audit', 'verify', '--dir', s.dir, '--json']);
      expect(r.json).toMatchObject({ ok: true, contracts_checked: 1, consumption: 'ok' });
      const head = r.json['head'] as { sequence: number; mac: string };
      expect(head.sequence).toBe(r.json['audit_rows_checked']);
      expect(r.json['anchor']).toEqual({ sequence: head.sequence, headMac: head.mac });
      const file = join(root, `export-${n}.jsonl`);
      const e = ok(['audit', 'export', '--dir', s.dir, '--out', file, '--json']);
      expect(e.json).toMatchObject({ ok: true, rows: head.sequence, first_sequence: 1, last_sequence: head.sequence });
      expect(lstatSync(file).mode & 0o777).toBe(0o600);
      const text = readFileSync(file, 'utf8');
      expect(text).not.toContain(SENTINEL);
      expect(text).not.toContain('LAN_SERVERS');
      expect(ok(['audit', 'verify', '--export', file, '--json']).json).toMatchObject({ ok: true, rows: head.sequence });
      const lines = text.trim().split('\n');
      const edited = join(root, `edited-${n}.jsonl`);
      writeFileSync(edited, `${[lines[0], lines[1]?.replace('"at":', '"at":1'), ...lines.slice(2)].join('\n')}\n`);
      expect(admin(['audit', 'verify', '--export', edited, '--json']).json).toMatchObject({
        ok: false,
        failure: { table: 'export', row: '2', kind: 'CHAIN_MISMATCH' },
      });
      const dropped = join(root, `dropped-${n}.jsonl`);
      writeFileSync(dropped, `${[lines[0], ...lines.slice(2)].join('\n')}\n`);
      expect(admin(['audit', 'verify', '--export', dropped]).status).toBe(1);
      const since = ok(['audit', 'export', '--dir', s.dir, '--since', new Date(Date.now() + 60_000).toISOString()]);
      expect(since.stdout.trim().split('\n')).toHaveLength(2);
      // The stdout export without --out: JSON lines, then (with --json) the summary.
      expect(ok(['audit', 'export', '--dir', s.dir]).stdout.trim().split('\n')).toHaveLength(head.sequence + 2);
      dbCopy = join(root, `older-${n}`);
      ok(['backup', '--dir', s.dir, '--out', dbCopy]);
      await verified(s, 'WEB_PORTS');
    } finally {
      s.driver.close();
    }
    // A restored older database is behind its anchor: the first failure names the anchor, exit 1.
    copyFileSync(join(dbCopy, 'contracts.sqlite'), join(s.dir, 'store', 'contracts.sqlite'));
    const behind = admin(['audit', 'verify', '--dir', s.dir, '--json']);
    expect(behind.status).toBe(1);
    expect(behind.json).toMatchObject({ ok: false, failure: { table: 'anchor', kind: 'BEHIND' }, error: { code: 'AUDIT_VERIFY_FAILED' } });
    expect(admin(['audit', 'verify', '--dir', s.dir]).stdout).toMatch(/FAILED at table anchor, kind BEHIND/);
  });

  it('a tampered contract row is the first failure (table contracts, its row, RECORD_MAC)', async () => {
    const s = await setup();
    let id: string;
    try {
      id = (await prepared(s, 'WEB_PORTS', 'tamper me')).contractId;
    } finally {
      s.driver.close();
    }
    const db = join(s.dir, 'store', 'contracts.sqlite');
    const bytes = readFileSync(db);
    const at = bytes.indexOf(Buffer.from('"state":"PREPARED"'));
    expect(at).toBeGreaterThan(0);
    bytes.write('"state":"VERIFIED"', at);
    writeFileSync(db, bytes);
    const r = admin(['audit', 'verify', '--dir', s.dir, '--json']);
    expect(r.status).toBe(1);
    expect(r.json['failure']).toEqual({ table: 'contracts', row: id, kind: 'RECORD_MAC' });
    // The other commands refuse the tampered store (they open it verified).
    expect(admin(['status', '--dir', s.dir, '--json']).json).toMatchObject({ ok: false });
  });
});

// What someone who can write the closed database does without any key: SQLite directly, in a child process
// (the test's own imports stay inside the layering rules; the contract store's own suite covers every edit).
function editClosedStore(db: string, statements: readonly string[], contractId: string): void {
  const script =
    "const D = require('better-sqlite3'); const d = new D(process.argv[1]);" +
    ' for (const s of JSON.parse(process.argv[2])) d.prepare(s).run(process.argv[3]); d.close();';
  const r = spawnSync(process.execPath, ['-e', script, db, JSON.stringify(statements), contractId], {
    encoding: 'utf8',
    cwd: process.cwd(),
  });
  expect(r.status, r.stderr).toBe(0);
}

describe('admin audit verify on rows deleted while the store was closed', () => {
  it('a deleted PREPARED contract: exit 1 naming the table and the contract, and the server-side commands refuse', async () => {
    const s = await setup();
    let id: string;
    try {
      id = (await prepared(s, 'WEB_PORTS', 'delete me')).contractId;
    } finally {
      s.driver.close();
    }
    editClosedStore(
      join(s.dir, 'store', 'contracts.sqlite'),
      ['DELETE FROM protected_artifacts WHERE contract_id = ?', 'DELETE FROM contracts WHERE contract_id = ?'],
      id,
    );
    const r = admin(['audit', 'verify', '--dir', s.dir, '--json']);
    expect(r.status).toBe(1);
    expect(r.json['failure']).toMatchObject({ table: 'contracts', row: id });
    expect(admin(['audit', 'verify', '--dir', s.dir]).stdout).toMatch(/FAILED at table contracts, row /);
    expect(admin(['status', '--dir', s.dir, '--json']).json).toMatchObject({ ok: false });
    // The server's write runtime stays down with the same place named (table, contract id), never a value.
    const keyFile = join(root, `api-key-${n}`);
    writeFileSync(keyFile, `${sim.apiKey}\n`, { mode: 0o600 });
    const env = {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      PFSENSE_URL: sim.url,
      PFSENSE_API_KEY_FILE: keyFile,
      PFSENSE_ALLOW_HTTP_LOOPBACK: 'true',
      PFSENSE_PROFILE: 'write_protected',
      PFSENSE_WRITE_DIR: s.dir,
    };
    const check = spawnSync(process.execPath, [serverMain, '--check-config'], { encoding: 'utf8', env, timeout: 60_000 });
    expect(check.status).toBe(1);
    expect(check.stdout).toContain(`ABSENT (runtime_enabled, STORE_ROW_MISSING)`);
    expect(check.stdout).toContain(`in table contracts, contract ${id}`);
    expect(check.stdout + check.stderr).not.toContain('delete me');
  });
});

describe('admin backup', () => {
  it('copies both databases online into a new 0700 directory (files 0600), never the anchors; refuses a non-empty one', async () => {
    const s = await setup();
    try {
      await prepared(s, 'LAN_SERVERS');
      const out = join(root, `backup-${n}`);
      const r = ok(['backup', '--dir', s.dir, '--out', out, '--json']);
      expect(r.json['files']).toEqual([join(out, 'contracts.sqlite'), join(out, 'consumption.sqlite')]);
      expect(lstatSync(out).mode & 0o777).toBe(0o700);
      expect(readdirSync(out).sort()).toEqual(['consumption.sqlite', 'contracts.sqlite']);
      for (const f of readdirSync(out)) expect(lstatSync(join(out, f)).mode & 0o777).toBe(0o600);
      refusal(admin(['backup', '--dir', s.dir, '--out', out, '--json']), 'OUT_NOT_EMPTY');
      refusal(admin(['backup', '--dir', s.dir, '--json']), 'USAGE', 2);
    } finally {
      s.driver.close();
    }
  });
});

describe('admin migrate', () => {
  it('a current store: copies it first and leaves it current; refused while a live server is announced', async () => {
    const s = await setup();
    s.driver.close();
    const r = ok(['migrate', '--dir', s.dir, '--out', join(root, `pre-${n}`), '--json']);
    expect(r.json['backup_files']).toEqual([join(root, `pre-${n}`, 'contracts.sqlite'), join(root, `pre-${n}`, 'consumption.sqlite')]);
    expect(ok(['audit', 'verify', '--dir', s.dir]).status).toBe(0);
    // A live process announced as a server on DIR (pid, start time, boot id): migrate refuses and changes nothing.
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      const pid = child.pid ?? 0;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
      const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
      writeFileSync(join(s.dir, `.server-${pid}.lock`), JSON.stringify({ pid, start_time: start, boot_id: boot }), { mode: 0o600 });
      const refused = admin(['migrate', '--dir', s.dir, '--out', join(root, `pre2-${n}`), '--json']);
      refusal(refused, 'WRITE_DIR_IN_USE');
      expect(existsSync(join(root, `pre2-${n}`))).toBe(false);
    } finally {
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    // The same file once its process is gone is stale.
    expect(ok(['migrate', '--dir', s.dir, '--out', join(root, `pre3-${n}`)]).stdout).toContain("this release's schema");
  });
});

describe('no output of any command', () => {
  it('contains the planted description, the alias name or a key', () => {
    const all = outputs.join('\n');
    expect(all).not.toContain(SENTINEL);
    expect(all).not.toContain('LAN_SERVERS');
    expect(all).not.toContain(sim.apiKey);
  });
});
