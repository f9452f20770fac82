// Accepting a restored store (docs/DESIGN.md §3): the anchor records the acceptance time, and the
// consumption gate refuses every authorization issued at or before it, so an authorization consumed after
// the backup cannot be replayed from the restored file.
import { copyFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileAntiRollbackAnchor, SqliteConsumptionStore, SqliteRecoveryContractStore } from '../src/index.js';
import { ExecutorContractStore } from '../src/executor-entry.js';
import { HOUR, T0, contractInput, executing, makeHarness, preparedConfirmed } from './helpers.js';
import type { Harness } from './helpers.js';

let h: Harness;
beforeEach(() => {
  h = makeHarness();
});
afterEach(() => h.cleanup());

const anchorFile = () => join(h.anchorDir, 'consumption-anchor.json');
const options = () => ({ directory: h.dir, masterKey: h.masterKey, clock: () => h.clock.now, anchor: { file: anchorFile() } });

describe('SqliteConsumptionStore.acceptRestore', () => {
  it('a restored backup is refused (BEHIND) until accepted; then an authorization consumed after the backup is refused on replay', async () => {
    const file = join(h.dir, 'consumption.sqlite');
    const issuedA = T0 - 1000;
    const issuedB = T0 + 1000;
    const c = await SqliteConsumptionStore.open(options());
    expect(c.acceptedRestoreAt()).toBeNull();
    expect(c.tryConsume('auth-a', issuedA)).toBe(true);
    c.close();
    const backup = readFileSync(file);
    h.clock.now = T0 + 2000;
    const d = await SqliteConsumptionStore.open(options());
    expect(d.tryConsume('auth-b', issuedB)).toBe(true);
    d.close();

    writeFileSync(file, backup); // the restore: auth-b's consumption is gone from the file
    await expect(SqliteConsumptionStore.open(options())).rejects.toMatchObject({ name: 'StoreRollbackError', code: 'BEHIND' });

    h.clock.now = T0 + HOUR;
    await expect(SqliteConsumptionStore.acceptRestore(options())).resolves.toBe(T0 + HOUR);
    const e = await SqliteConsumptionStore.open(options());
    expect(e.acceptedRestoreAt()).toBe(T0 + HOUR);
    // auth-b is not in the restored file, but it was issued before the acceptance: counted as consumed.
    expect(e.isConsumed('auth-b', issuedB)).toBe(true);
    expect(e.tryConsume('auth-b', issuedB)).toBe(false);
    // so is any authorization issued at the acceptance time, or one presented without its issued_at.
    expect(e.tryConsume('auth-c', T0 + HOUR)).toBe(false);
    expect(e.tryConsume('auth-d')).toBe(false);
    // an authorization issued after the acceptance is consumed once, as ever.
    expect(e.tryConsume('auth-e', T0 + HOUR + 1)).toBe(true);
    expect(e.tryConsume('auth-e', T0 + HOUR + 1)).toBe(false);
    expect(() => e.isConsumed('auth-f', -1)).toThrow(TypeError);
    e.close();

    // The acceptance survives later anchor writes and reopenings.
    const f = await SqliteConsumptionStore.open(options());
    expect(f.acceptedRestoreAt()).toBe(T0 + HOUR);
    expect(f.isConsumed('auth-b', issuedB)).toBe(true);
    f.close();
  });

  it('never moves the acceptance time backwards, and a lowered acceptance in the anchor fails authentication', async () => {
    const c = await SqliteConsumptionStore.open(options());
    c.close();
    h.clock.now = T0 + HOUR;
    await SqliteConsumptionStore.acceptRestore(options());
    h.clock.now = T0; // a clock set back
    await expect(SqliteConsumptionStore.acceptRestore(options())).resolves.toBe(T0 + HOUR);

    const text = readFileSync(anchorFile(), 'utf8');
    const parsed = JSON.parse(text) as Record<string, unknown>;
    expect(parsed.v).toBe(2);
    writeFileSync(anchorFile(), JSON.stringify({ ...parsed, accepted_restore_at: T0 }), { mode: 0o600 });
    await expect(SqliteConsumptionStore.open(options())).rejects.toMatchObject({ name: 'AnchorError', code: 'ANCHOR_MAC' });
    // dropping the field (back to the v1 shape) fails too
    const { accepted_restore_at: _dropped, ...v1 } = parsed;
    writeFileSync(anchorFile(), JSON.stringify({ ...v1, v: 1 }), { mode: 0o600 });
    await expect(SqliteConsumptionStore.open(options())).rejects.toMatchObject({ name: 'AnchorError', code: 'ANCHOR_MAC' });
  });

  it('needs an anchor and an existing, intact file', async () => {
    await expect(
      SqliteConsumptionStore.acceptRestore({ directory: h.dir, masterKey: h.masterKey, clock: () => T0 } as never),
    ).rejects.toThrow(TypeError);
    await expect(SqliteConsumptionStore.acceptRestore(options())).rejects.toMatchObject({ name: 'StoreFileError', code: 'NOT_FOUND' });
  });

  it('an anchor written before acceptance existed (v1) still reads, with no acceptance', () => {
    const a = new FileAntiRollbackAnchor({ path: join(h.anchorDir, 'plain.json'), macKey: new Uint8Array(32).fill(3) });
    a.write({ storeId: 'store-1', sequence: 4, headMac: 'ab'.repeat(32) });
    expect(JSON.parse(readFileSync(join(h.anchorDir, 'plain.json'), 'utf8')).v).toBe(1);
    expect(a.read()).toEqual({ storeId: 'store-1', sequence: 4, headMac: 'ab'.repeat(32), acceptedRestoreAt: null });
    a.write({ storeId: 'store-1', sequence: 5, headMac: 'cd'.repeat(32), acceptedRestoreAt: T0 });
    expect(a.read()).toEqual({ storeId: 'store-1', sequence: 5, headMac: 'cd'.repeat(32), acceptedRestoreAt: T0 });
  });
});

describe('SqliteRecoveryContractStore.reanchorRestoredStore', () => {
  it('records the acceptance time in the contract anchor and carries it through later writes', async () => {
    const s = await h.open();
    s.create(contractInput());
    s.close();
    renameSync(h.anchorFile, `${h.anchorFile}.aside`);
    h.clock.now = T0 + 5000;
    const r = await SqliteRecoveryContractStore.reanchorRestoredStore(h.options());
    r.create(contractInput({ target: 2 }));
    r.close();
    const anchor = JSON.parse(readFileSync(h.anchorFile, 'utf8')) as Record<string, unknown>;
    expect(anchor).toMatchObject({ v: 2, accepted_restore_at: T0 + 5000 });
    const again = await h.open();
    again.close();
  });
});

describe('SqliteRecoveryContractStore.acceptRestore', () => {
  const dbPath = () => join(h.dir, 'contracts.sqlite');

  it('accepts a restored copy behind its anchor (no anchor to move aside), records the time, expires restored PREPARED work', async () => {
    const s = await h.open();
    const c = preparedConfirmed(s, contractInput({ target: 1 }));
    s.close();
    copyFileSync(dbPath(), join(h.anchorDir, 'backup.sqlite'));
    const t = await h.open();
    ExecutorContractStore.of(t).beginExecution(c.contract_id, c.state_version);
    t.close();
    copyFileSync(join(h.anchorDir, 'backup.sqlite'), dbPath());
    await expect(h.open()).rejects.toMatchObject({ name: 'StoreRollbackError', code: 'BEHIND' });

    h.clock.now = T0 + 5000;
    const r = await SqliteRecoveryContractStore.acceptRestore(h.options());
    // executed after the backup, PREPARED in the copy: it must never start again
    expect(r.load(c.contract_id)).toMatchObject({ state: 'EXPIRED', last_outcome_class: 'RESTORED_FROM_BACKUP' });
    r.close();
    expect(JSON.parse(readFileSync(h.anchorFile, 'utf8'))).toMatchObject({ v: 2, accepted_restore_at: T0 + 5000 });
    const again = await h.open();
    expect(again.verifyIntegrity()).toMatchObject({ ok: true });
    again.close();
  });

  it('is refused while a contract is EXECUTING, and changes nothing then', async () => {
    const s = await h.open();
    executing(s, contractInput({ target: 1 }));
    s.close();
    const before = readFileSync(h.anchorFile, 'utf8');
    await expect(SqliteRecoveryContractStore.acceptRestore(h.options())).rejects.toMatchObject({
      name: 'PreconditionError',
      code: 'RESTORE_WITH_WORK_IN_FLIGHT',
    });
    expect(readFileSync(h.anchorFile, 'utf8')).toBe(before);
  });
});
