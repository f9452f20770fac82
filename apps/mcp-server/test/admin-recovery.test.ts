// Black-box tests of the appliance-facing admin commands (`rollback`, `reconcile`, `release`) through the BUILT
// program and the BUILT signer: the write path's first half runs in the test (as a server would), the admin
// commands run as real processes after it is gone, against the simulator on loopback.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type RunningSimulator } from '@pfsense-mcp/pfsense-sim';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ALIASES, openDriver, SIM_DATA } from './support/admin-driver.js';
import type { Driver } from './support/admin-driver.js';
import { connectBuilt, ensureBuilt } from './support/built-server.js';
import { confirmAndRun as signAndRun, setUpDriverHost, type DriverHost } from './support/driver-host.js';
import { runAdminAsync } from './support/run-admin.js';
import type { ProgramRun as Run } from './support/run-program.js';
import { ensureSignerBuilt, runSignerAsync } from './support/signer-program.js';

const ALIAS_PATH = '/api/v2/firewall/alias';
// Each test runs many real child processes (the built program, the signer): seconds each on a loaded machine.
vi.setConfig({ testTimeout: 240_000 });
const root = mkdtempSync(join(tmpdir(), 'admin-recovery-'));
let sim: RunningSimulator;
let keyFile: string;

beforeAll(async () => {
  ensureBuilt();
  // Rebuilt when stale too: the review this suite reads is the signer's current one.
  await ensureSignerBuilt();
  sim = await startSimulator({ data: SIM_DATA });
  keyFile = join(root, 'api-key');
  writeFileSync(keyFile, `${sim.apiKey}\n`, { mode: 0o600 });
}, 120_000);
afterAll(async () => {
  await sim.close();
  rmSync(root, { recursive: true, force: true });
});

const applianceEnv = (): Record<string, string> => ({
  PFSENSE_URL: sim.url,
  PFSENSE_API_KEY_FILE: keyFile,
  PFSENSE_ALLOW_HTTP_LOOPBACK: 'true',
});
/** Asynchronous on purpose: the simulator lives in this process and must keep answering while the child runs. */
const admin = (args: readonly string[], env: Record<string, string> = applianceEnv()): Promise<Run> => runAdminAsync(args, env);
const signer = runSignerAsync;

async function ok(p: Promise<Run>): Promise<Run> {
  const r = await p;
  expect(r.status, `${r.stderr} ${r.stdout}`).toBe(0);
  return r;
}

let n = 0;
type Setup = Omit<DriverHost, 'driver'> & { readonly reconciliationKey: string; driver: Driver };

async function setup(): Promise<Setup> {
  n += 1;
  const dir = join(root, `w${n}`);
  const keys = join(root, `keys${n}`);
  let recon: Record<string, unknown> = {};
  const host = await setUpDriverHost(admin, sim, dir, keys, async () => {
    recon = (await ok(signer(['keygen', '--role', 'reconciliation', '--out', keys, '--json']))).json;
    // The hex, not the .pub: its private key lies beside it (admin trust refuses that file, docs/DESIGN.md §10).
    await ok(admin(['trust', '--dir', dir, '--role', 'reconciliation', '--public-key', String(recon['public_key'])]));
  });
  return { ...host, reconciliationKey: String(recon['private_key_file']) };
}

/** requested → authorization → PREPARED → confirmation (→ the executor). Returns the contract id and the last status. */
async function confirmAndRun(
  s: Setup,
  alias: string,
  description: string,
): Promise<{ contractId: string; status: string; pending: string | null }> {
  const r3 = await signAndRun(admin, s, alias, description);
  return { contractId: r3.contractId ?? '', status: r3.status, pending: r3.pendingRequest?.file ?? null };
}

async function aliasDescr(name: string): Promise<string> {
  const r = await fetch(`${sim.url}/api/v2/firewall/aliases`, { headers: { 'X-API-Key': sim.apiKey } });
  const body = (await r.json()) as { data: Array<{ name: string; descr: string }> };
  return body.data.find((a) => a.name === name)?.descr ?? '';
}

/** Every file under `dir` (recursively), but not the ones in the skipped top-level folders. */
function filesUnder(dir: string, skip: readonly string[] = []): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (skip.includes(e.name)) return [];
    return e.isDirectory() ? filesUnder(path) : e.isFile() ? [path] : [];
  });
}

async function newestRevisionDescription(): Promise<string> {
  const r = await fetch(`${sim.url}/api/v2/diagnostics/config_history/revisions`, { headers: { 'X-API-Key': sim.apiKey } });
  return ((await r.json()) as { data: Array<{ description: string }> }).data[0]?.description ?? '';
}

/** The real signer: review with the operator key for the approval code, then sign with --approve. */
async function signWithSigner(s: Setup, request: string, outcome?: 'APPLIED' | 'NOT_APPLIED'): Promise<string> {
  const serverKey = join(s.dir, 'keys', 'server-request.pub');
  const review = (await ok(signer(['review', request, '--server-key', serverKey, '--key', s.reconciliationKey, '--json']))).json[
    'review'
  ] as { approve_prefix: string };
  const out = mkdtempSync(join(tmpdir(), 'admin-recovery-signed-'));
  const signed = await signer([
    'sign',
    request,
    '--key',
    s.reconciliationKey,
    '--server-key',
    serverKey,
    '--out',
    out,
    '--approve',
    review.approve_prefix,
    '--json',
    ...(outcome === undefined ? [] : ['--outcome', outcome]),
  ]);
  expect(signed.status, signed.stderr).toBe(0);
  return String(signed.json['file']);
}

describe('admin rollback', () => {
  it('rolls back a VERIFIED contract after the server is gone (one PATCH), refuses other states, unknown ids, a missing variable', async () => {
    const s = await setup();
    const original = ALIASES.find((a) => a.name === 'LAN_SERVERS')?.descr;
    const v = await confirmAndRun(s, 'LAN_SERVERS', 'rolled back soon');
    expect(v.status).toBe('verified');
    expect(await aliasDescr('LAN_SERVERS')).toBe('rolled back soon');
    s.driver.close();
    const missing = await admin(['rollback', '--dir', s.dir, v.contractId, '--json'], { PFSENSE_API_KEY_FILE: keyFile });
    expect(missing.status).toBe(1);
    expect(JSON.stringify(missing.json['error'])).toContain('PFSENSE_URL');
    sim.control.resetCounters();
    const r = await ok(admin(['rollback', v.contractId, '--dir', s.dir]));
    // Plain words, not the state machine's names.
    expect(r.stdout.trim()).toBe(`rolled back ${v.contractId}: the old description is back on the appliance (read back and checked)`);
    expect(sim.control.count(ALIAS_PATH, 'PATCH')).toBe(1);
    expect(await aliasDescr('LAN_SERVERS')).toBe(original);
    // Applied and undone is `rolled_back`, never `refused`: in `admin status` and in the MCP operations view.
    const status = await ok(admin(['status', '--dir', s.dir, '--all', '--json']));
    expect(status.json['contracts']).toEqual([
      expect.objectContaining({ contract_id: v.contractId, state: 'ROLLED_BACK', mcp_status: 'rolled_back' }),
    ]);
    const server = await connectBuilt({ ...applianceEnv(), PFSENSE_PROFILE: 'write_protected', PFSENSE_WRITE_DIR: s.dir });
    try {
      const listed = (await server.client.callTool({ name: 'pfsense_get_write_operations', arguments: {} })).structuredContent as {
        data: Record<string, unknown>[];
      };
      expect(listed.data).toEqual([
        expect.objectContaining({ contract_id: v.contractId, contract_state: 'ROLLED_BACK', status: 'rolled_back' }),
      ]);
      expect(String(listed.data[0]?.['next_step'])).toContain('rolled back');
    } finally {
      await server.close();
    }
    const r2 = await ok(admin(['status', '--dir', s.dir, '--all']));
    expect(r2.stdout).toContain('rolled_back');
    const again = await admin(['rollback', '--dir', s.dir, v.contractId, '--json']);
    expect(again.status).toBe(1);
    expect(again.json['error']).toMatchObject({ code: 'WRONG_STATE' });
    expect((await admin(['rollback', '--dir', s.dir, 'no-such-contract', '--json'])).json['error']).toMatchObject({
      code: 'UNKNOWN_CONTRACT',
    });
    expect(sim.control.count(ALIAS_PATH, 'PATCH')).toBe(1);
    // No presence file is left behind by the runtime the command built.
    expect(readdirSync(s.dir).filter((f) => f.startsWith('.server-'))).toEqual([]);
  });
});

describe('admin rollback racing', () => {
  it('two rollback processes on one contract: one PATCH, one ROLLED_BACK, the other refused', async () => {
    const s = await setup();
    const v = await confirmAndRun(s, 'LAN_SERVERS', 'raced rollback');
    expect(v.status).toBe('verified');
    s.driver.close();
    sim.control.resetCounters();
    const [a, b] = await Promise.all([
      admin(['rollback', '--dir', s.dir, v.contractId, '--json']),
      admin(['rollback', '--dir', s.dir, v.contractId, '--json']),
    ]);
    const states = [a, b].map((r) => (r.status === 0 ? String(r.json['state']) : String((r.json['error'] as { code: string }).code)));
    expect(states.filter((x) => x === 'ROLLED_BACK')).toHaveLength(1);
    expect(states.filter((x) => x !== 'ROLLED_BACK')).toEqual([expect.stringMatching(/^(WRONG_STATE|REFUSED)$/)]);
    expect(sim.control.count(ALIAS_PATH, 'PATCH')).toBe(1);
    expect((await ok(admin(['audit', 'verify', '--dir', s.dir]))).status).toBe(0);
  });
});

describe('admin reconcile', () => {
  for (const outcome of ['APPLIED', 'NOT_APPLIED'] as const) {
    it(`after a reset-after-apply: emit (already pending is exit 0), the real signer's ${outcome}, inbox add, resume with zero sends`, async () => {
      const s = await setup();
      const alias = outcome === 'APPLIED' ? 'WEB_PORTS' : 'DMZ_HOSTS';
      sim.control.setFault({ route: ALIAS_PATH, method: 'PATCH', kind: 'reset-after-apply' });
      let lost;
      try {
        lost = await confirmAndRun(s, alias, `lost response ${outcome}`);
      } finally {
        sim.control.clearFaults();
      }
      expect(lost.status).toBe('reconciliation_required');
      s.driver.close();
      const status = (await ok(admin(['status', '--dir', s.dir, '--json']))).json['contracts'] as Array<Record<string, unknown>>;
      expect(status.find((c) => c['contract_id'] === lost.contractId)).toMatchObject({
        state: 'RECONCILIATION',
        mcp_status: 'reconciliation_required',
      });
      sim.control.resetCounters();
      const nextOf = async () =>
        String(
          ((await ok(admin(['status', '--dir', s.dir, '--json']))).json['contracts'] as Array<Record<string, unknown>>).find(
            (c) => c['contract_id'] === lost.contractId,
          )?.['next_step'],
        );
      const before = await nextOf();
      const emitted = await ok(admin(['reconcile', 'emit', '--dir', s.dir, lost.contractId, '--json']));
      const request = String(emitted.json['pending_request']);
      expect(request.startsWith(join(s.dir, 'outbox', 'reconciliation-request.'))).toBe(true);
      // The real signer's review shows the config-history corroboration next to the observed description: the
      // lost PATCH left exactly pfrest's one alias-update revision.
      const shown = (await ok(signer(['review', request, '--server-key', join(s.dir, 'keys', 'server-request.pub')]))).stdout;
      expect(shown).toMatch(
        new RegExp(
          `^ {2}observed now {2}"lost response ${outcome}" {3}locator \\d+\n {2}config history: 1 new revision since the send, at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC,\n {4}'Modified Firewall Alias via API'$`,
          'm',
        ),
      );
      const twice = await ok(admin(['reconcile', 'emit', '--dir', s.dir, lost.contractId, '--json']));
      expect(twice.json).toMatchObject({ already_pending: true, pending_request: request });
      // admin status's next step is the coordinator's nextHumanStep: write the request while none is in the
      // outbox, sign it once it is there.
      expect(before).toMatch(
        emitted.json['already_pending'] === true ? /^sign the reconciliation request in the outbox/ : /^`admin reconcile emit ID`/,
      );
      expect(await nextOf()).toMatch(
        /^sign the reconciliation request in the outbox with the reconciliation key, `admin inbox add`, `admin reconcile resume ID`/,
      );
      // Resume before the evidence is there: refused, nothing changes.
      expect((await admin(['reconcile', 'resume', '--dir', s.dir, lost.contractId, '--json'])).json['error']).toMatchObject({
        code: 'REFUSED',
      });
      await ok(admin(['inbox', 'add', '--dir', s.dir, await signWithSigner(s, request, outcome)]));
      const resumed = await ok(admin(['reconcile', 'resume', lost.contractId, '--dir', s.dir, '--json']));
      expect(resumed.json).toMatchObject({ from_state: 'RECONCILIATION', state: outcome === 'APPLIED' ? 'VERIFIED' : 'FAILED' });
      expect(sim.control.count(ALIAS_PATH, 'PATCH')).toBe(0);
      expect((await ok(admin(['audit', 'verify', '--dir', s.dir]))).status).toBe(0);
      expect((await admin(['reconcile', 'emit', '--dir', s.dir, lost.contractId, '--json'])).json['error']).toMatchObject({
        code: 'WRONG_STATE',
      });
      // Sentinel scan: of the revision descriptions (user, client address, pfrest's note) nothing but their digest
      // is kept — not in the store, its audit or its WAL, nor anywhere else under the directory but the outbox
      // request the operator reviews (which carries pfrest's fixed note by design).
      const description = await newestRevisionDescription();
      expect(description).toMatch(/@.+:\s+Modified Firewall Alias via API$/);
      const author = description.slice(0, description.indexOf(':'));
      for (const file of filesUnder(s.dir, ['outbox', 'inbox'])) {
        const bytes = readFileSync(file);
        for (const needle of [description, author, 'Firewall Alias via API'])
          expect(bytes.includes(Buffer.from(needle)), `${file}: ${needle}`).toBe(false);
      }
    });
  }
});

describe('admin release', () => {
  it('a ROLLBACK_FAILED contract holding its reservation: emit, the real signer signs, resume releases it with zero sends; the alias is usable again', async () => {
    const s = await setup();
    const v = await confirmAndRun(s, 'DMZ_HOSTS', 'rollback will fail');
    expect(v.status).toBe('verified');
    s.driver.close();
    // Someone changed the alias on the appliance since VERIFIED: the rollback refuses to overwrite it (zero sends),
    // ROLLBACK_FAILED, and the contract keeps holding the alias.
    const id = ALIASES.findIndex((a) => a.name === 'DMZ_HOSTS');
    const patched = await fetch(`${sim.url}${ALIAS_PATH}`, {
      method: 'PATCH',
      headers: { 'X-API-Key': sim.apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ id, descr: 'changed by hand' }),
    });
    expect(patched.status).toBe(200);
    sim.control.resetCounters();
    const failed = await admin(['rollback', '--dir', s.dir, v.contractId, '--json']);
    expect(sim.control.count(ALIAS_PATH, 'PATCH')).toBe(0);
    expect(failed.status).toBe(1);
    expect(failed.json).toMatchObject({
      state: 'ROLLBACK_FAILED',
      reason_class: 'TARGET_CHANGED_SINCE_VERIFIED',
      error: { code: 'ROLLBACK_ROLLBACK_FAILED' },
    });
    expect(await aliasDescr('DMZ_HOSTS')).toBe('changed by hand');
    // While the hold stands, the alias takes no new change.
    s.driver = await openDriver(s.dir, sim);
    sim.control.resetCounters();
    const blocked = await confirmAndRun(s, 'DMZ_HOSTS', 'blocked by the hold');
    expect(blocked.status).not.toBe('verified');
    expect(sim.control.count(ALIAS_PATH, 'PATCH')).toBe(0);
    s.driver.close();

    sim.control.resetCounters();
    const emitted = await ok(admin(['release', 'emit', '--dir', s.dir, v.contractId, '--json']));
    const request = String(emitted.json['pending_request']);
    expect(request.startsWith(join(s.dir, 'outbox', 'release-request.'))).toBe(true);
    expect((await admin(['release', 'resume', '--dir', s.dir, v.contractId, '--json'])).json['error']).toMatchObject({ code: 'REFUSED' });
    await ok(admin(['inbox', 'add', '--dir', s.dir, await signWithSigner(s, request)]));
    const resumed = await ok(admin(['release', 'resume', v.contractId, '--dir', s.dir, '--json']));
    expect(resumed.json).toMatchObject({
      contract_id: v.contractId,
      from_state: 'ROLLBACK_FAILED',
      state: 'ROLLBACK_FAILED',
      reservation_released: true,
    });
    expect(sim.control.count(ALIAS_PATH, 'PATCH')).toBe(0);
    expect((await ok(admin(['audit', 'verify', '--dir', s.dir]))).status).toBe(0);
    // Released once: a second resume has nothing to release.
    expect((await admin(['release', 'resume', '--dir', s.dir, v.contractId, '--json'])).status).toBe(1);
    s.driver = await openDriver(s.dir, sim);
    try {
      expect((await confirmAndRun(s, 'DMZ_HOSTS', 'free again')).status).toBe('verified');
      expect(await aliasDescr('DMZ_HOSTS')).toBe('free again');
    } finally {
      s.driver.close();
    }
  });

  it('refuses a contract that is not ROLLBACK_FAILED', async () => {
    const s = await setup();
    const v = await confirmAndRun(s, 'VPN_PEERS', 'not a failed rollback');
    s.driver.close();
    expect((await admin(['release', 'emit', '--dir', s.dir, v.contractId, '--json'])).json['error']).toMatchObject({ code: 'WRONG_STATE' });
    expect((await admin(['release', 'resume', '--dir', s.dir, v.contractId, '--json'])).json['error']).toMatchObject({
      code: 'WRONG_STATE',
    });
  });
});
