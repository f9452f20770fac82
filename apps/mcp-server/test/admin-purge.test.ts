// Black-box: `pfsense-mcp admin purge` through the BUILT program on a real store: a terminal contract past the
// retention window loses its protected artifacts; an open contract keeps them; the window is configured.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteRecoveryContractStore } from '@pfsense-mcp/contract-store';
import type { NewContractInput } from '@pfsense-mcp/contract-store';
import { readMasterKeyFile } from '@pfsense-mcp/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDirectoryLayout } from '../src/runtime/write-directory/write-directory-layout.js';
import { ensureBuilt } from './support/built-server.js';
import { runAdmin } from './support/run-admin.js';

const root = mkdtempSync(join(tmpdir(), 'admin-purge-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
beforeAll(() => ensureBuilt(), 120_000);

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

const admin = runAdmin;

const hex = (n: number): string => n.toString(16).padStart(64, '0');
function input(n: number, now: number): NewContractInput {
  return {
    operation_id: `op-purge-${n}`,
    capability: 'ALIAS_WRITE',
    endpoint_symbol: 'FIREWALL_ALIAS_PATCH',
    http_method: 'PATCH',
    target_identity_digest: hex(n),
    target_fingerprint: hex(0xf1),
    intent_digest: hex(0x1d),
    snapshot_digest: hex(0x5a),
    rollback_plan_version: 'alias-descr-v1',
    lifecycle_locator: n,
    provenance: {
      authorization_id: `auth-purge-${n}`,
      plan_digest: hex(0x91),
      step_id: 'step-1',
      execution_intent_digest: hex(0xe1),
      authorization_expires_at: now + 2 * HOUR,
    },
    expires_at: now + HOUR,
    target_identity: { alias_name: `alias_${n}` },
    intent: { alias_name: `alias_${n}`, description: 'SENTINEL-PURGE-INTENT' },
    snapshot: { name: `alias_${n}`, descr: 'SENTINEL-PURGE-SNAPSHOT', type: 'host', address: ['10.0.0.1'], detail: [''] },
  };
}

describe('admin purge', () => {
  it('purges a terminal contract past the window, leaves an open one untouched, and refuses a bad window', async () => {
    const dir = join(root, 'w');
    const init = admin(['init', '--dir', dir, '--json']);
    expect(init.status, init.stderr).toBe(0);
    const layout = writeDirectoryLayout(dir);
    const masterKey = readMasterKeyFile(layout.masterKeyFile);
    const clock = { now: Date.now() - 40 * DAY };
    const open = () =>
      SqliteRecoveryContractStore.open({
        directory: layout.storeDir,
        masterKey,
        clock: () => clock.now,
        anchor: { file: layout.contractsAnchorFile },
      });
    const s = await open();
    const old = s.create(input(1, clock.now));
    s.markPrepared(old.contract_id, old.state_version);
    clock.now += 2 * HOUR;
    expect(s.expire()).toEqual([old.contract_id]);
    clock.now = Date.now();
    const live = s.create(input(2, clock.now));
    s.markPrepared(live.contract_id, live.state_version);
    s.close();

    // status shows the window, its source and what purge would take — per the configured window.
    expect(admin(['status', '--dir', dir, '--json']).json['retention']).toEqual({ days: 30, source: 'default', purgeable_contracts: 1 });
    expect(admin(['status', '--dir', dir, '--json'], { PFSENSE_WRITE_RETENTION_DAYS: '60' }).json['retention']).toEqual({
      days: 60,
      source: 'env',
      purgeable_contracts: 0,
    });
    const readable = admin(['status', '--dir', dir, '--all']).stdout;
    expect(readable).toContain('retention: 30 days (default; set PFSENSE_WRITE_RETENTION_DAYS to change); 1 terminal contract(s) past it');
    // Each row and hint points into the runbook, at a section that exists.
    const runbook = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'OPERATIONS.md'), 'utf8');
    const links = [...readable.matchAll(/see \S*docs\/OPERATIONS\.md#([a-z0-9-]+)/g)].map((m) => m[1] ?? '');
    expect(links).toEqual(expect.arrayContaining(['expired', 'awaiting-signatures', 'retention']));
    for (const a of links) expect(runbook).toContain(`<a id="${a}"></a>`);
    expect(admin(['purge', '--dir', dir, '--json'], { PFSENSE_WRITE_RETENTION_DAYS: 'thirty' })).toMatchObject({
      status: 1,
      json: { ok: false, error: { code: 'CONFIG' } },
    });
    // a 60-day window: the contract ended 40 days ago stays
    expect(admin(['purge', '--dir', dir, '--json'], { PFSENSE_WRITE_RETENTION_DAYS: '60' }).json).toMatchObject({
      ok: true,
      retention_days: 60,
      purged: [],
    });

    const r = admin(['purge', '--dir', dir, '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ ok: true, retention_days: 30, purged: [old.contract_id] });
    expect(r.stdout + r.stderr).not.toContain('SENTINEL');
    expect(admin(['status', '--dir', dir, '--json']).json['retention']).toEqual({ days: 30, source: 'default', purgeable_contracts: 0 });

    clock.now = Date.now();
    const t = await open();
    expect(t.load(old.contract_id).artifacts_purged_at).not.toBeNull();
    expect(t.load(live.contract_id)).toMatchObject({ state: 'PREPARED', artifacts_purged_at: null });
    expect(t.verifyIntegrity()).toMatchObject({ ok: true });
    t.close();
    masterKey.fill(0);
  }, 120_000);
});
