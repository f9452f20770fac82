// Black-box: `pfsense-mcp admin reanchor --accept-restore` through the BUILT program, on real store files.
// A backup restored → the stores refuse to open (anchor behind) → the explicit acceptance → they open, and an
// authorization consumed after the backup (forgotten by the restored file) is refused on replay.
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteConsumptionStore, SqliteRecoveryContractStore } from '@pfsense-mcp/contract-store';
import { readMasterKeyFile } from '@pfsense-mcp/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDirectoryLayout } from '../src/runtime/write-directory/write-directory-layout.js';
import { ensureBuilt } from './support/built-server.js';
import { runAdmin } from './support/run-admin.js';

const root = mkdtempSync(join(tmpdir(), 'admin-restore-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
beforeAll(() => ensureBuilt(), 120_000);

const admin = runAdmin;

describe('admin reanchor --accept-restore', () => {
  it('accepts a restored backup; an authorization consumed after the backup stays refused', async () => {
    const dir = join(root, 'w');
    expect(admin(['init', '--dir', dir, '--json']).status).toBe(0);
    const layout = writeDirectoryLayout(dir);
    const masterKey = readMasterKeyFile(layout.masterKeyFile);
    const consumption = () =>
      SqliteConsumptionStore.open({
        directory: layout.storeDir,
        masterKey,
        clock: Date.now,
        anchor: { file: layout.consumptionAnchorFile },
      });
    const contracts = () =>
      SqliteRecoveryContractStore.open({
        directory: layout.storeDir,
        masterKey,
        clock: Date.now,
        anchor: { file: layout.contractsAnchorFile },
      });
    (await contracts()).close();

    const a = await consumption();
    expect(a.tryConsume('auth-before-backup', Date.now() - 2000)).toBe(true);
    a.close();
    const file = join(layout.storeDir, 'consumption.sqlite');
    const backup = join(root, 'consumption.backup.sqlite');
    copyFileSync(file, backup);
    const issuedAfterBackup = Date.now() - 1000;
    const b = await consumption();
    expect(b.tryConsume('auth-after-backup', issuedAfterBackup)).toBe(true);
    b.close();

    copyFileSync(backup, file); // the restore
    await expect(consumption()).rejects.toMatchObject({ name: 'StoreRollbackError', code: 'BEHIND' });

    // explicit only: without --accept-restore it is a usage error and nothing changes
    const before = readFileSync(layout.consumptionAnchorFile, 'utf8');
    const bare = admin(['reanchor', '--dir', dir, '--json']);
    expect(bare.status).toBe(2);
    expect(bare.json).toMatchObject({ ok: false });
    expect(readFileSync(layout.consumptionAnchorFile, 'utf8')).toBe(before);

    const accepted = admin(['reanchor', '--accept-restore', '--dir', dir, '--json']);
    expect(accepted.status, accepted.stderr).toBe(0);
    expect(accepted.json).toMatchObject({ ok: true });
    const at = accepted.json['accepted_restore_at'] as number;
    expect(Number.isSafeInteger(at) && at >= issuedAfterBackup).toBe(true);

    const c = await consumption();
    expect(c.acceptedRestoreAt()).toBe(at);
    expect(c.isConsumed('auth-after-backup', issuedAfterBackup)).toBe(true);
    expect(c.tryConsume('auth-after-backup', issuedAfterBackup)).toBe(false);
    expect(c.tryConsume('auth-fresh', at + 1)).toBe(true);
    c.close();
    (await contracts()).close();
    expect(JSON.parse(readFileSync(layout.contractsAnchorFile, 'utf8'))).toMatchObject({ accepted_restore_at: at });

    // The acceptance is a value-free row of the contract store's chain: audit verify holds, audit export shows it.
    expect(admin(['audit', 'verify', '--dir', dir]).status).toBe(0);
    const rows = admin(['audit', 'export', '--dir', dir])
      .stdout.trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const acceptedRows = rows.filter((r) => JSON.stringify(r).includes('restore-accepted'));
    expect(acceptedRows).toHaveLength(1);
    expect(JSON.stringify(acceptedRows[0])).toContain('RESTORE_ACCEPTED');
    expect(JSON.stringify(acceptedRows[0])).toContain(String(at));

    // readable output names the acceptance and never a key
    const readable = admin(['reanchor', '--accept-restore', '--dir', dir]);
    expect(readable.status).toBe(0);
    expect(readable.stdout).toContain('restore accepted at');
    expect(readable.stdout + readable.stderr).not.toContain(Buffer.from(masterKey).toString('hex'));
    masterKey.fill(0);
  }, 120_000);

  it('refuses a DIR not laid out by init', () => {
    const r = admin(['reanchor', '--accept-restore', '--dir', join(root, 'missing'), '--json']);
    expect(r.status).not.toBe(0);
    expect(r.json).toMatchObject({ ok: false });
  });
});
