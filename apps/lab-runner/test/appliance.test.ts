// The lab runner against a disposable appliance, played by a separately started simulator described by a lab
// config: gate request → the real signer → run; the receipt refusals before any request; the deadline; the
// preflight refusals; the closing read-back; and that the default path connects to 127.0.0.1 only.
import { execFileSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createLabGateReceipt, encodeArtifact, parseArtifactOfKind, ArtifactKind } from '@pfsense-mcp/authorization';
import { canonicalize } from '@pfsense-mcp/canonical';
import { generateEd25519KeyPair, writeSecretFile } from '@pfsense-mcp/crypto';
import { bytesToHex } from '@pfsense-mcp/canonical';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/run-cli.js';
import {
  APPLIANCE_ID,
  CANDIDATE,
  DESCRIPTION_A,
  aliases,
  counters,
  labDir as labDirIn,
  ownerSigns,
  requestGate,
  simData,
  startSim as startSimIn,
  total,
} from './support/appliance-lab.js';
import type { Sim } from './support/appliance-lab.js';

const root = mkdtempSync(join(tmpdir(), 'lab-appliance-test-'));
chmodSync(root, 0o700);
const sims: ChildProcess[] = [];
const startSim = (name: string, data: Record<string, unknown>, extraArgs: readonly string[] = []) =>
  startSimIn(root, sims, name, data, extraArgs);
const labDir = (name: string, s: Sim, fields: Record<string, unknown> = {}) => labDirIn(root, name, s, fields);

let sim: Sim;
beforeAll(async () => {
  sim = await startSim('main', simData(aliases()));
});
afterAll(() => {
  for (const c of sims) c.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

describe('against a disposable appliance (a separately started simulator)', () => {
  it('gate request → the real signer → run: the scenarios pass, the appliance is exactly as found, named only by its binding digest', async () => {
    const lab = labDir('run', sim);
    const gate = await requestGate(lab, 'ordinary,d1-stale-before-forward');
    expect(gate.pending_request.startsWith('/')).toBe(true);
    expect(gate.pending_request.startsWith(lab.dir)).toBe(true);
    expect(gate.request_public_key).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(join(lab.dir, 'lab-request.pub'), 'utf8')).toBe(`${gate.request_public_key}\n`);
    const receipt = ownerSigns(lab, gate.pending_request);
    const report = join(lab.dir, 'report');
    const before = await counters(sim);
    const r = await runCli(
      [
        '--scenario',
        'ordinary',
        '--scenario',
        'd1-stale-before-forward',
        '--lab-config',
        lab.config,
        '--gate-receipt',
        receipt,
        '--json',
        '--report-dir',
        report,
      ],
      { cwd: lab.dir },
    );
    expect(r.code).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.slice(0, 2).map((l) => [l.id, l.ok, l.final_target_matches, l.siblings_unchanged])).toEqual([
      ['ordinary', true, true, true],
      ['d1-stale-before-forward', true, true, true],
    ]);
    // The alias write never applies (apply: false): pfSense shows it pending, and the closing read-back says so.
    expect(lines[2]).toMatchObject({
      summary: { passed: 2, failed: 0 },
      closing: { exactly_as_found: true, pending_subsystems: ['aliases'] },
    });
    // So the next run's preflight refuses until the operator applied (or discarded) it.
    const again = await runCli(['--scenario', 'ordinary', '--lab-config', lab.config, '--gate-receipt', receipt], { cwd: lab.dir });
    expect(again.code).toBe(3);
    expect(again.stderr).toContain('PREFLIGHT_PENDING');
    const after = await counters(sim);
    // ordinary: forward + rollback; d1: two orchestration writes — exactly what the proxies counted.
    expect((after['PATCH /api/v2/firewall/alias'] ?? 0) - (before['PATCH /api/v2/firewall/alias'] ?? 0)).toBe(4);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test-only access to the report JSON
    const json = JSON.parse(readFileSync(join(report, 'report.json'), 'utf8')) as Record<string, any>;
    expect(json.target).toBe('appliance');
    expect(json.appliance.binding_digest).toMatch(/^[0-9a-f]{64}$/);
    expect(json.appliance.preflight).toMatchObject({ candidate_matches: 1, sibling_count: 1, pending_subsystems: [] });
    expect(Object.values(json.appliance_bindings)).toEqual([json.appliance.binding_digest, json.appliance.binding_digest]);
    const port = new URL(sim.url).port;
    for (const name of readdirSync(report)) {
      const text = readFileSync(join(report, name), 'utf8');
      for (const leak of [sim.url, `127.0.0.1:${port}`, APPLIANCE_ID, DESCRIPTION_A, readFileSync(sim.apiKeyFile, 'utf8').trim()])
        expect(text).not.toContain(leak);
    }
    for (const leak of [sim.url, APPLIANCE_ID, DESCRIPTION_A]) expect(r.stdout + r.stderr).not.toContain(leak);
  });

  it('an expired, tampered, wrong-role or wrong-appliance receipt is refused before any request', async () => {
    const sim = await startSim('refuse', simData(aliases()));
    const lab = labDir('refuse', sim);
    const base = await counters(sim);
    const run = (receipt: string, config = lab.config) =>
      runCli(['--scenario', 'ordinary', '--lab-config', config, '--gate-receipt', receipt], { cwd: lab.dir });
    const expectRefused = async (receipt: string, code: string, config?: string) => {
      const now = await counters(sim);
      const r = await run(receipt, config);
      expect(r.code).toBe(3);
      expect(r.stderr).toContain(code);
      expect(total(await counters(sim))).toBe(total(now));
    };
    // Expired: a gate with a short lease, signed at once, used after its deadline.
    const short = await requestGate(lab, 'ordinary', { PFSENSE_MCP_LAB_TEST_GATE_LEASE_MS: '8000' });
    const expired = ownerSigns(lab, short.pending_request);
    const deadline = parseArtifactOfKind(readFileSync(expired), ArtifactKind.LAB_GATE_RECEIPT).payload.deadline;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now()) + 100));
    await expectRefused(expired, 'GATE_EXPIRED');
    // A valid gate for the rest.
    const gate = await requestGate(lab, 'ordinary');
    const receipt = ownerSigns(lab, gate.pending_request);
    const doc = parseArtifactOfKind(readFileSync(receipt), ArtifactKind.LAB_GATE_RECEIPT);
    // Tampered: one payload field changed, still canonical.
    const tampered = join(lab.signed, 'tampered.json');
    writeSecretFile(tampered, canonicalize({ ...doc, payload: { ...doc.payload, scenarios: ['d1-stale-before-forward', 'ordinary'] } }));
    await expectRefused(tampered, 'GATE_BAD_SIGNATURE');
    // Wrong role: the same receipt signed by the owner's reconciliation key (pinned as reconciliation).
    const recon = generateEd25519KeyPair();
    writeFileSync(join(lab.dir, 'reconciliation.pub'), `${bytesToHex(recon.publicKey)}\n`, { mode: 0o600 });
    const request = parseArtifactOfKind(readFileSync(gate.pending_request), ArtifactKind.LAB_GATE_REQUEST);
    const wrongRole = join(lab.signed, 'wrong-role.json');
    writeSecretFile(wrongRole, encodeArtifact(createLabGateReceipt(request, { privateKey: recon.privateKey }, { issuedAt: Date.now() })));
    await expectRefused(wrongRole, 'GATE_WRONG_ROLE');
    // Wrong appliance: a lab config that expects another appliance binding.
    const other = join(lab.dir, 'other.json');
    writeFileSync(
      other,
      JSON.stringify({
        url: sim.url,
        api_key_file: sim.apiKeyFile,
        candidate_alias: CANDIDATE,
        allow_http_loopback: true,
        expected_appliance: 'e'.repeat(64),
      }),
      { mode: 0o600 },
    );
    await expectRefused(receipt, 'GATE_BINDING_MISMATCH', other);
    // A receipt that does not cover the selected scenario is refused too.
    const r = await runCli(['--scenario', 'd1-stale-before-forward', '--lab-config', lab.config, '--gate-receipt', receipt], {
      cwd: lab.dir,
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('GATE_BINDING_MISMATCH');
    // And the valid one still runs.
    const ok = await run(receipt);
    expect(ok.code).toBe(0);
    expect(total(await counters(sim))).toBeGreaterThan(total(base));
  });

  it("a G restart against an https appliance with a CA file: both workers connect with the lab config's TLS mode and CA, zero resends", async () => {
    const tls = mkdtempSync(join(root, 'tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-days',
        '2',
        '-keyout',
        join(tls, 'key.pem'),
        '-out',
        join(tls, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    const ca = readFileSync(join(tls, 'cert.pem'), 'utf8');
    const s = await startSim('tls', simData(aliases()), ['--tls-cert', join(tls, 'cert.pem'), '--tls-key', join(tls, 'key.pem')]);
    expect(s.url.startsWith('https://127.0.0.1:')).toBe(true);
    const lab = labDir('tls', s, { allow_http_loopback: undefined, ca_file: 'ca.pem' });
    writeFileSync(join(lab.dir, 'ca.pem'), ca, { mode: 0o600 });
    const receipt = ownerSigns(lab, (await requestGate(lab, 'g-restart-after-verified')).pending_request);
    const before = await counters(s, ca);
    const report = join(lab.dir, 'report');
    const r = await runCli(
      ['--scenario', 'g-restart-after-verified', '--lab-config', lab.config, '--gate-receipt', receipt, '--json', '--report-dir', report],
      { cwd: lab.dir },
    );
    expect(r.code, r.stderr).toBe(0);
    const [line, summary] = r.stdout
      .trim()
      .split('\n')
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test-only access to the JSON lines
      .map((l) => JSON.parse(l) as Record<string, any>);
    expect(line).toMatchObject({
      id: 'g-restart-after-verified',
      ok: true,
      final_target_matches: true,
      siblings_unchanged: true,
      reconciled_on_restart: 0,
      appliance_writes: null,
    });
    expect(line?.states).toEqual(['PREPARED', 'EXECUTING', 'VERIFIED', 'ROLLING_BACK', 'ROLLED_BACK']);
    expect(line?.sends).toEqual({ forward: 1, rollback: 1, orchestration: 0 });
    expect(summary).toMatchObject({ summary: { passed: 1, failed: 0 }, closing: { exactly_as_found: true } });
    // The forward came from the killed worker, the rollback from the new one: the appliance saw exactly two.
    const after = await counters(s, ca);
    expect((after['PATCH /api/v2/firewall/alias'] ?? 0) - (before['PATCH /api/v2/firewall/alias'] ?? 0)).toBe(2);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test-only access to the report JSON
    const json = JSON.parse(readFileSync(join(report, 'report.json'), 'utf8')) as Record<string, any>;
    const actions = (json.scenarios[0].timeline as { actor: string; action: string }[]).map((e) => `${e.actor}: ${e.action}`);
    expect(actions).toContain('runner: worker SIGKILLed (SIGKILL) at: after VERIFIED');
    expect(actions.some((a) => a.startsWith('worker: new process: runtime rebuilt from the store'))).toBe(true);
    for (const name of readdirSync(report)) expect(readFileSync(join(report, name), 'utf8')).not.toContain(s.url);
  }, 180_000);

  it('a G restart whose gate deadline passes between the kill and the restart starts no new worker and sends nothing more', async () => {
    const s = await startSim('g-deadline', simData(aliases()));
    const lab = labDir('g-deadline', s);
    const receipt = ownerSigns(
      lab,
      (await requestGate(lab, 'g-restart-after-verified', { PFSENSE_MCP_LAB_TEST_GATE_LEASE_MS: '40000' })).pending_request,
    );
    const before = await counters(s);
    const r = await runCli(
      [
        '--scenario',
        'g-restart-after-verified',
        '--lab-config',
        lab.config,
        '--gate-receipt',
        receipt,
        '--json',
        '--report-dir',
        join(lab.dir, 'report'),
      ],
      {
        cwd: lab.dir,
        env: { PFSENSE_MCP_LAB_TEST_WAIT_DEADLINE_AFTER: 'restart' },
      },
    );
    expect(r.code).toBe(1);
    const [line, summary] = r.stdout
      .trim()
      .split('\n')
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test-only access to the JSON lines
      .map((l) => JSON.parse(l) as Record<string, any>);
    expect(line?.ok).toBe(false);
    expect(line?.failures[0]).toMatch(/^GATE_DEADLINE/);
    expect(line?.states).toEqual(['PREPARED', 'EXECUTING', 'VERIFIED']);
    expect(line?.reconciled_on_restart).toBeNull();
    expect(line?.left).toMatchObject({ action: 'left-as-is', subject_state: 'VERIFIED' });
    expect(summary?.closing).toMatchObject({ exactly_as_found: null, reason: 'GATE_DEADLINE' });
    // Only the killed worker's forward reached the appliance: no rollback, no recovery after the deadline.
    const after = await counters(s);
    expect((after['PATCH /api/v2/firewall/alias'] ?? 0) - (before['PATCH /api/v2/firewall/alias'] ?? 0)).toBe(1);
  }, 120_000);

  it('the deadline passing mid-run stops before the next action', async () => {
    const sim = await startSim('deadline', simData(aliases()));
    const lab = labDir('deadline', sim);
    const gate = await requestGate(lab, 'ordinary', { PFSENSE_MCP_LAB_TEST_GATE_LEASE_MS: '20000' });
    const receipt = ownerSigns(lab, gate.pending_request);
    const before = await counters(sim);
    const r = await runCli(
      ['--scenario', 'ordinary', '--lab-config', lab.config, '--gate-receipt', receipt, '--json', '--report-dir', join(lab.dir, 'report')],
      {
        cwd: lab.dir,
        env: { PFSENSE_MCP_LAB_TEST_WAIT_DEADLINE_AFTER: 'prepare' },
      },
    );
    expect(r.code).toBe(1);
    const [line, summary] = r.stdout
      .trim()
      .split('\n')
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test-only access to the JSON lines
      .map((l) => JSON.parse(l) as Record<string, any>);
    expect(line?.ok).toBe(false);
    expect(line?.states).toEqual(['PREPARED']);
    expect(line?.failures[0]).toMatch(/^GATE_DEADLINE/);
    expect(line?.left).toMatchObject({ action: 'left-as-is' });
    expect(summary?.closing).toMatchObject({ exactly_as_found: null, reason: 'GATE_DEADLINE' });
    // Nothing was sent: the subject was only PREPARED when the deadline passed.
    const after = await counters(sim);
    expect(after['PATCH /api/v2/firewall/alias'] ?? 0).toBe(before['PATCH /api/v2/firewall/alias'] ?? 0);
  }, 120_000);

  it('preflight refuses a missing or duplicated candidate and anything pending in /api/v2/firewall/apply, before any change', async () => {
    const cases: [string, Sim, string][] = [
      ['missing', await startSim('missing', simData(aliases().filter((a) => a.name !== CANDIDATE))), 'PREFLIGHT_CANDIDATE_MISSING'],
      [
        'duplicated',
        await startSim(
          'dup',
          simData(aliases([{ name: CANDIDATE, type: 'host', descr: 'second', address: ['10.72.0.1'], detail: ['x'] }])),
        ),
        'PREFLIGHT_CANDIDATE_DUPLICATED',
      ],
      [
        'pending',
        await startSim('pending', simData(aliases(), { '/api/v2/firewall/apply': { applied: false, pending_subsystems: ['aliases'] } })),
        'PREFLIGHT_PENDING',
      ],
    ];
    for (const [name, s, code] of cases) {
      const lab = labDir(name, s);
      const receipt = ownerSigns(lab, (await requestGate(lab, 'ordinary')).pending_request);
      const r = await runCli(['--scenario', 'ordinary', '--lab-config', lab.config, '--gate-receipt', receipt], { cwd: lab.dir });
      expect(r.code, name).toBe(3);
      expect(r.stderr).toContain(code);
      expect((await counters(s))['PATCH /api/v2/firewall/alias'] ?? 0).toBe(0);
      expect(readdirSync(lab.dir).filter((f) => f.startsWith('lab-report-'))).toEqual([]);
    }
  });

  it('a lab config with an unknown field, plain http off loopback, or a mode other than owner-only is refused (exit 2)', async () => {
    const lab = labDir('config', sim);
    const write = (name: string, body: object, mode = 0o600) => {
      const p = join(lab.dir, name);
      writeFileSync(p, JSON.stringify(body), { mode });
      chmodSync(p, mode);
      return p;
    };
    const good = { url: sim.url, api_key_file: sim.apiKeyFile, candidate_alias: CANDIDATE, allow_http_loopback: true };
    for (const [file, text] of [
      [write('unknown.json', { ...good, extra: 1 }), 'unknown field'],
      [write('http.json', { ...good, allow_http_loopback: false }), '"url" must be https'],
      [write('remote.json', { ...good, url: 'http://192.0.2.10' }), 'only for a simulator on 127.0.0.1'],
      [write('mode.json', good, 0o644), 'owner-only'],
    ] as const) {
      const r = await runCli(['--request-gate', '--lab-config', file, '--scenarios', 'ordinary'], { cwd: lab.dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(text);
    }
    // A scenario that ends in a reconciliation decision or a release needs the owner's reconciliation key pinned.
    for (const args of [
      ['--request-gate', '--scenarios', 'ordinary,e-forward-response-lost'],
      ['--scenario', 'd3-conflict-after-verified', '--gate-receipt', 'none.json'],
    ]) {
      const r = await runCli([...args, '--lab-config', write('no-owner-key.json', good)], { cwd: lab.dir });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain('"reconciliation_public_key_file"');
      rmSync(join(lab.dir, 'no-owner-key.json'));
    }
  });
});

describe('without a lab config', () => {
  it('the default path connects to 127.0.0.1 only (every process of the run, workers and simulator children included)', async () => {
    const log = join(root, 'connections.log');
    writeFileSync(log, '');
    const guard = pathToFileURL(join(import.meta.dirname, 'support', 'connect-guard.mjs')).href;
    const r = await runCli(
      ['--scenario', 'ordinary', '--scenario', 'g-restart-after-verified', '--json', '--report-dir', join(root, 'default-report')],
      {
        cwd: root,
        env: { NODE_OPTIONS: `--import=${guard}`, LAB_TEST_CONNECT_LOG: log },
      },
    );
    expect(r.code).toBe(0);
    const hosts = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .filter((h) => !h.startsWith('ipc:'));
    expect(hosts.length).toBeGreaterThan(0);
    expect([...new Set(hosts)]).toEqual(['127.0.0.1']);
  }, 180_000);
});
