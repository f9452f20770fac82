// The one write end to end, as a user does it: `pfsense-mcp admin init/trust` on the host, the SDK Client
// spawning the BUILT server over stdio with PFSENSE_PROFILE=write_protected, the REAL signer on the "operator's
// machine" (keygen, review, sign --approve), `pfsense-mcp admin inbox add`, and the simulator over loopback.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBuilt } from './support/built-server.js';
import { ALIAS_PATH, ALIASES_PATH, useBuiltWriteWorld } from './support/built-write-world.js';
import { approve } from './support/host-setup.js';
import { simRequest } from './support/sim-request.js';
import { WRITE_TOOL } from './support/write-result.js';

// Each test spawns the server, the signer and the admin program several times (about a second per process
// start on a loaded machine); the bound is on process starts, not on anything the product waits for.
const PROCESS_TEST_TIMEOUT_MS = 180_000;

const world = useBuiltWriteWorld([
  { name: 'LAN_SERVERS', type: 'host', descr: 'Servers', address: ['10.0.0.1'], detail: ['nas'] },
  { name: 'WEB_PORTS', type: 'port', descr: 'HTTP and HTTPS', address: ['80', '443'], detail: ['http', 'https'] },
  { name: 'DMZ_HOSTS', type: 'host', descr: 'DMZ', address: ['10.3.0.10'], detail: ['web'] },
]);
const host = world.host;
const env = world.env;
const serve = world.connect;
const call = world.call;

async function descr(name: string): Promise<unknown> {
  const r = await simRequest(world.sim.url, world.sim.apiKey, 'GET', ALIASES_PATH);
  return (r.json as { data: { name: string; descr: string }[] }).data.find((a) => a.name === name)?.descr;
}

const patches = world.patches;

/** Every regular file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : [],
  );
}

const absentLine = (stderr: string): Record<string, unknown> | null => {
  const line = stderr.split('\n').find((l) => l.includes('"event":"write_tool_absent"'));
  return line === undefined ? null : (JSON.parse(line) as Record<string, unknown>);
};

describe('the signed write through MCP, the real signer and pfsense-mcp admin', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('requested → signer --approve → admin inbox add → awaiting_confirmation → confirmation → verified; the alias changed, one PATCH', async () => {
    const h = host();
    const s = await serve(env(h));
    const { tools } = await s.client.listTools();
    expect(tools.some((t) => t.name === WRITE_TOOL)).toBe(true);
    const info = (await s.client.callTool({ name: 'pfsense_mcp_info', arguments: {} })).structuredContent;
    expect(info).toMatchObject({ write_tool_count: 1, write_implemented: true, write_granted: true, write_runtime_enabled: true });

    const args = { alias_name: 'LAN_SERVERS', description: 'Servers — reviewed 2026' };
    const requested = await call(s, args);
    expect(requested.status).toBe('requested');
    expect(requested.pending_request?.startsWith(`${h.dir}/outbox/`)).toBe(true);
    const prefix = approve(h, requested.pending_request ?? '', 'plan-authorization');
    // The approval prefix is read on the signer, never from the AI's result.
    expect(JSON.stringify(requested)).not.toContain(prefix);

    const awaiting = await call(s, args);
    expect(awaiting.status).toBe('awaiting_confirmation');
    expect(awaiting.operation_id).toBe(requested.operation_id);
    const confirmPrefix = approve(h, awaiting.pending_request ?? '', 'confirmation');
    expect(JSON.stringify(awaiting)).not.toContain(confirmPrefix);
    const before = patches();
    const verified = await call(s, args);
    expect(verified).toMatchObject({ status: 'verified', contract_id: awaiting.contract_id, pending_request: null });
    expect(await descr('LAN_SERVERS')).toBe(args.description);
    expect(patches()).toBe(before + 1);
    expect(await call(s, args)).toMatchObject({ status: 'verified' });
    expect(patches()).toBe(before + 1);
    // stderr: JSON lines only, none carrying the description.
    expect(s.stderr()).not.toContain('reviewed 2026');
    // The approval codes (keyed by the operator keys, docs/DESIGN.md §10) are in no artifact and no server output:
    // not in the write directory (outbox, inbox, stores), not among the signed files, not on the server's stderr.
    for (const code of [prefix, confirmPrefix]) {
      for (const file of [...filesUnder(h.dir), ...filesUnder(h.signedDir)])
        expect(readFileSync(file).toString('latin1'), file).not.toContain(code);
      expect(s.stderr()).not.toContain(code);
      expect(JSON.stringify(verified)).not.toContain(code);
    }
  });

  it('response lost after apply → reconciliation_required with its pending request → signed APPLIED → verified, never resent', async () => {
    const h = host();
    const s = await serve(env(h));
    const args = { alias_name: 'WEB_PORTS', description: 'Web (lost answer)' };
    approve(h, (await call(s, args)).pending_request ?? '', 'plan-authorization');
    approve(h, (await call(s, args)).pending_request ?? '', 'confirmation');
    world.sim.control.setFault({ route: ALIAS_PATH, method: 'PATCH', kind: 'drop-response-after-apply', times: 1 });
    const before = patches();
    const lost = await call(s, args);
    expect(lost.status).toBe('reconciliation_required');
    expect(lost.next_step).toMatch(/^NOT done/);
    expect(lost.pending_request).toMatch(/\/outbox\/reconciliation-request\./);
    approve(h, lost.pending_request ?? '', 'reconciliation', 'APPLIED');
    expect(await call(s, args)).toMatchObject({ status: 'verified', contract_id: lost.contract_id });
    expect(patches()).toBe(before + 1);
    expect(await descr('WEB_PORTS')).toBe(args.description);
  });

  it('refused on a stale target (the alias changed before the confirmed change ran): one shape, nothing sent', async () => {
    const h = host();
    const s = await serve(env(h));
    const args = { alias_name: 'DMZ_HOSTS', description: 'DMZ (stale)' };
    approve(h, (await call(s, args)).pending_request ?? '', 'plan-authorization');
    approve(h, (await call(s, args)).pending_request ?? '', 'confirmation');
    const r = await simRequest(world.sim.url, world.sim.apiKey, 'PATCH', ALIAS_PATH, { id: 2, descr: 'someone else', apply: false });
    expect(r.status).toBe(200);
    const before = patches();
    expect(await call(s, args)).toEqual({
      status: 'refused',
      operation_id: null,
      contract_id: null,
      pending_request: null,
      next_step: 'Refused. The operator can inspect the write directory with `pfsense-mcp admin`.',
    });
    expect(patches()).toBe(before);
  });

  it('hostile input over stdio: huge, control characters → INVALID_INPUT; bidi and zero-width are values; the server keeps serving and logs none of it', async () => {
    const h = host();
    const s = await serve(env(h));
    const errorOf = async (args: Record<string, unknown>) => {
      const r = (await s.client.callTool({ name: WRITE_TOOL, arguments: args })) as { content: { text: string }[]; isError?: boolean };
      expect(r.isError).toBe(true);
      return (JSON.parse(r.content[0]?.text ?? '{}') as { error: { code: string; detail?: string } }).error;
    };
    expect((await errorOf({ alias_name: 'LAN_SERVERS', description: 'HUGE'.repeat(300_000) })).code).toBe('INVALID_INPUT');
    expect(await errorOf({ alias_name: 'LAN_SERVERS', description: 'ESC\u001b[2Jhere' })).toMatchObject({
      code: 'INVALID_INPUT',
      detail: 'description is invalid (CONTROL_CHARACTER)',
    });
    expect((await errorOf({ alias_name: 'LAN\u200BSERVERS', description: 'x' })).code).toBe('INVALID_INPUT');
    const bidi = await call(s, { alias_name: 'LAN_SERVERS', description: 'ok\u202Egnp.exe\u200B' });
    expect(bidi.status).toBe('requested');
    expect(JSON.stringify(bidi)).not.toContain('gnp.exe');
    expect((await s.client.listTools()).tools.length).toBeGreaterThan(90);
    for (const needle of ['HUGE', 'ESC', 'gnp.exe']) expect(s.stderr()).not.toContain(needle);
  });
});

describe(
  'the write tool is absent for each failed gate; READ keeps serving; --check-config says why',
  { timeout: PROCESS_TEST_TIMEOUT_MS },
  () => {
    it('auditor with PFSENSE_WRITE_DIR set: 0 write tools; the stderr line names the granted gate; --check-config exits 1 with the same reason', async () => {
      const h = host();
      const s = await serve(env(h, { PFSENSE_PROFILE: 'auditor' }));
      expect((await s.client.listTools()).tools.some((t) => t.name === WRITE_TOOL)).toBe(false);
      expect((await s.client.callTool({ name: 'pfsense_mcp_info', arguments: {} })).structuredContent).toMatchObject({
        write_tool_count: 0,
        write_granted: false,
      });
      expect(absentLine(s.stderr())).toMatchObject({ gate: 'granted', code: 'NOT_GRANTED' });
      const check = await runBuilt(env(h, { PFSENSE_PROFILE: 'auditor' }), ['--check-config']);
      expect(check.code).toBe(1);
      expect(check.stdout).toContain('ABSENT (granted, NOT_GRANTED)');
      expect(check.stdout).toMatch(/implemented: yes, granted: no, runtime-enabled: no/);
    });

    it('write_protected with no confirmation key pinned: the runtime gate, code NO_CONFIRMATION_KEY, in the stderr line and --check-config', async () => {
      const h = host(['plan-authorization']);
      const s = await serve(env(h));
      const { tools } = await s.client.listTools();
      expect(tools.some((t) => t.name === WRITE_TOOL)).toBe(false);
      expect((await s.client.callTool({ name: 'pfsense_get_firewall_aliases', arguments: {} })).isError).not.toBe(true);
      const line = absentLine(s.stderr());
      expect(line).toMatchObject({ gate: 'runtime_enabled', code: 'NO_CONFIRMATION_KEY' });
      const check = await runBuilt(env(h), ['--check-config']);
      expect(check.code).toBe(1);
      expect(check.stdout).toContain(`ABSENT (runtime_enabled, NO_CONFIRMATION_KEY): ${String(line?.['rule'])}`);
    });

    it('write_protected without PFSENSE_WRITE_DIR: absent (WRITE_DIR_UNSET); a write directory not laid out by init: absent (WRITE_DIR_NOT_FOUND)', async () => {
      const s = await serve(env(null));
      expect((await s.client.listTools()).tools.some((t) => t.name === WRITE_TOOL)).toBe(false);
      expect(absentLine(s.stderr())).toMatchObject({ gate: 'runtime_enabled', code: 'WRITE_DIR_UNSET' });
      const missing = await serve(env(null, { PFSENSE_WRITE_DIR: '/nonexistent/pfsense-mcp-write' }));
      expect((await missing.client.listTools()).tools.some((t) => t.name === WRITE_TOOL)).toBe(false);
      expect(absentLine(missing.stderr())).toMatchObject({ gate: 'runtime_enabled', code: 'WRITE_DIR_NOT_FOUND' });
    });

    it('the default (auditor, nothing set): READ + 0 WRITE, no write line; --check-config exits 0', async () => {
      const e = world.applianceEnv();
      const s = await serve(e);
      expect((await s.client.listTools()).tools.some((t) => t.name === WRITE_TOOL)).toBe(false);
      expect(s.stderr()).not.toContain('write_tool_absent');
      const check = await runBuilt(e, ['--check-config']);
      expect(check.code).toBe(0);
      expect(check.stdout).toContain('not requested');
    });

    it('--check-config on a complete setup: the three facts yes, the write runtime and the write path GETs ok, exit 0', async () => {
      const h = host();
      const check = await runBuilt(env(h), ['--check-config']);
      expect(check.stdout).toMatch(/implemented: yes, granted: yes, runtime-enabled: yes/);
      expect(check.stdout).toContain('write runtime   ok');
      expect(check.stdout).toMatch(/write read\s+ok \(GET \/api\/v2\/firewall\/aliases\)/);
      expect(check.stdout).toMatch(/write read\s+ok \(GET \/api\/v2\/status\/system\)/);
      expect(check.stdout).toMatch(/write read\s+ok \(GET \/api\/v2\/diagnostics\/config_history\/revisions\)/);
      expect(check.code).toBe(0);
      // The check opened and closed the stores without changing them: a server still starts on them.
      expect(readFileSync(`${h.dir}/authorities.json`, 'utf8')).toContain('confirmation');
    });
  },
);
