// A host clock stepped backwards, through the BUILT program: the write path recorded a prepare at a
// time the clock has not reached again, so every prepare (a signed authorization being used) is refused until then.
// `admin status` says for how long and where the runbook section is; pfsense_mcp_info carries the time
// (write_clock_blocked_until). The write tool's `refused` keeps its one shape (unchanged).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createPlanAuthorizationFromRequest, encodeArtifact, parseArtifact } from '@pfsense-mcp/authorization';
import type { PendingAuthorizationRequest } from '@pfsense-mcp/authorization';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type RunningSimulator } from '@pfsense-mcp/pfsense-sim';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDriver, SIM_DATA } from './support/admin-driver.js';
import { connectBuilt, ensureBuilt } from './support/built-server.js';
import { setUpDriverHost } from './support/driver-host.js';
import { runAdminAsync } from './support/run-admin.js';
import type { ProgramRun } from './support/run-program.js';

vi.setConfig({ testTimeout: 240_000 });
const root = mkdtempSync(join(tmpdir(), 'clock-behind-'));
let sim: RunningSimulator;
let keyFile: string;

beforeAll(async () => {
  ensureBuilt();
  sim = await startSimulator({ data: SIM_DATA });
  keyFile = join(root, 'api-key');
  writeFileSync(keyFile, `${sim.apiKey}\n`, { mode: 0o600 });
}, 120_000);
afterAll(async () => {
  await sim.close();
  rmSync(root, { recursive: true, force: true });
});

const admin = (args: readonly string[]): Promise<ProgramRun> => runAdminAsync(args);
// How far ahead of this process's clock the prepare happens: far beyond the time the checks below can take.
const AHEAD_MS = 20 * 60_000;

/** The operator's plan authorization of the outbox file `name`, signed now, in a file of its own. */
function signedNow(dir: string, name: string, key: { privateKey: Uint8Array }): string {
  const request = parseArtifact(readFileSync(join(dir, 'outbox', name))) as PendingAuthorizationRequest;
  const file = join(root, `signed-${name}`);
  writeFileSync(file, encodeArtifact(createPlanAuthorizationFromRequest(request, key, { issuedAt: Date.now() })), { mode: 0o600 });
  return file;
}

describe('a clock behind the write path', () => {
  it('admin status says how long signed changes stay refused and names the runbook section; pfsense_mcp_info carries the time', async () => {
    const host = await setUpDriverHost(admin, sim, join(root, 'w'), join(root, 'keys'));
    host.driver.close();
    // The prepare happens "later" than this clock: the store's rate windows record that time.
    const ahead = await openDriver(host.dir, sim, { clockOffsetMs: AHEAD_MS });
    const r1 = await ahead.request('LAN_SERVERS', 'clock sentinel');
    // Signed now (the request was issued "later": the operator's clock is the right one), installed by the built admin.
    expect((await admin(['inbox', 'add', '--dir', host.dir, signedNow(host.dir, r1.pendingRequest?.file ?? '', host.plan)])).status).toBe(
      0,
    );
    const preparedAt = Date.now() + AHEAD_MS;
    expect((await ahead.request('LAN_SERVERS', 'clock sentinel')).status).toBe('awaiting_confirmation');
    ahead.close();

    const status = await admin(['status', '--dir', host.dir, '--json']);
    expect(status.status, status.stderr).toBe(0);
    const until = (status.json['rate_windows'] as { clock_blocked_until: number | null }).clock_blocked_until;
    expect(until).not.toBeNull();
    expect(until as number).toBeGreaterThan(Date.now());
    expect(until as number).toBeLessThanOrEqual(preparedAt + 1000);
    const text = await admin(['status', '--dir', host.dir]);
    const line =
      /CLOCK BEHIND the latest time the write path recorded: no signed change is accepted for another (\d+)m (\d+)s, until \d{4}-\d\d-\d\dT[\d:.]+Z — see \S*docs\/OPERATIONS\.md#clock-behind/.exec(
        text.stdout,
      );
    expect(line, text.stdout).not.toBeNull();
    // How long is left depends on how long the steps above took: at most the step ahead, and more than nothing.
    const leftMs = (Number(line?.[1]) * 60 + Number(line?.[2])) * 1000;
    expect(leftMs).toBeGreaterThan(0);
    expect(leftMs).toBeLessThanOrEqual(AHEAD_MS);
    expect(text.stdout).toContain(new Date(until as number).toISOString());

    const server = await connectBuilt({
      PFSENSE_URL: sim.url,
      PFSENSE_API_KEY_FILE: keyFile,
      PFSENSE_ALLOW_HTTP_LOOPBACK: 'true',
      PFSENSE_PROFILE: 'write_protected',
      PFSENSE_WRITE_DIR: host.dir,
    });
    try {
      const info = (await server.client.callTool({ name: 'pfsense_mcp_info', arguments: {} })).structuredContent as Record<string, unknown>;
      expect(info['write_clock_blocked_until']).toBe(new Date(until as number).toISOString());
    } finally {
      await server.close();
    }
  });

  it('pfsense_mcp_info says null when the clock holds nothing back', async () => {
    const host = await setUpDriverHost(admin, sim, join(root, 'w2'), join(root, 'keys2'));
    host.driver.close();
    const server = await connectBuilt({
      PFSENSE_URL: sim.url,
      PFSENSE_API_KEY_FILE: keyFile,
      PFSENSE_ALLOW_HTTP_LOOPBACK: 'true',
      PFSENSE_PROFILE: 'write_protected',
      PFSENSE_WRITE_DIR: host.dir,
    });
    try {
      const info = (await server.client.callTool({ name: 'pfsense_mcp_info', arguments: {} })).structuredContent as Record<string, unknown>;
      expect(info['write_clock_blocked_until']).toBeNull();
    } finally {
      await server.close();
    }
  });
});
