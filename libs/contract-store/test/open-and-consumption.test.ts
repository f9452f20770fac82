import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CRASH_HOOKS, SqliteConsumptionStore, SqliteRecoveryContractStore } from '../src/index.js';
import { T0, contractInput, makeHarness } from './helpers.js';
import type { Harness } from './helpers.js';

let h: Harness;
beforeEach(() => {
  h = makeHarness();
});
afterEach(() => h.cleanup());

const dbPath = () => join(h.dir, 'contracts.sqlite');

async function seed(): Promise<void> {
  const s = await h.open();
  s.create(contractInput());
  s.close();
}

describe('open fails closed', () => {
  it('on a missing, group-readable, symlinked or foreign-owned directory', async () => {
    await expect(SqliteRecoveryContractStore.open(h.options({ directory: join(h.dir, 'nope') }))).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    chmodSync(h.dir, 0o750);
    await expect(h.open()).rejects.toMatchObject({ name: 'StoreFileError', code: 'UNSAFE_MODE' });
    chmodSync(h.dir, 0o700);
    const link = join(h.anchorDir, 'link');
    symlinkSync(h.dir, link);
    await expect(SqliteRecoveryContractStore.open(h.options({ directory: link }))).rejects.toMatchObject({ code: 'SYMLINK' });
    if (process.getuid?.() === 0) {
      chownSync(h.dir, 12345, 12345);
      await expect(h.open()).rejects.toMatchObject({ code: 'WRONG_OWNER' });
      chownSync(h.dir, 0, 0);
    }
  });

  it('on an unsafe database, WAL or shared-memory file', async () => {
    await seed();
    chmodSync(dbPath(), 0o644);
    await expect(h.open()).rejects.toMatchObject({ name: 'StoreFileError', code: 'UNSAFE_MODE' });
    chmodSync(dbPath(), 0o600);
    writeFileSync(`${dbPath()}-wal`, '', { mode: 0o666 });
    chmodSync(`${dbPath()}-wal`, 0o666);
    await expect(h.open()).rejects.toMatchObject({ code: 'UNSAFE_MODE' });
    rmSync(`${dbPath()}-wal`);
    if (process.getuid?.() === 0) {
      chownSync(dbPath(), 12345, 12345);
      await expect(h.open()).rejects.toMatchObject({ code: 'WRONG_OWNER' });
      chownSync(dbPath(), 0, 0);
    }
    const s = await h.open();
    s.close();
  });

  it('on a symlinked database file or a database that is a directory', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'cs-elsewhere-'));
    try {
      writeFileSync(join(elsewhere, 'real.sqlite'), '', { mode: 0o600 });
      symlinkSync(join(elsewhere, 'real.sqlite'), dbPath());
      await expect(h.open()).rejects.toMatchObject({ code: 'SYMLINK' });
      rmSync(dbPath());
      mkdirSync(dbPath(), { mode: 0o700 });
      await expect(h.open()).rejects.toMatchObject({ code: 'NOT_REGULAR_FILE' });
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('on an unknown schema version, an unrecognizable schema, an older schema or a changed structure', async () => {
    await seed();
    const db = new Database(dbPath());
    db.prepare("INSERT INTO kysely_migration (name, timestamp) VALUES ('0002_from_the_future', 'x')").run();
    db.close();
    await expect(h.open()).rejects.toMatchObject({ name: 'SchemaVersionError', code: 'UNKNOWN_SCHEMA' });
    const db2 = new Database(dbPath());
    db2.prepare("DELETE FROM kysely_migration WHERE name = '0002_from_the_future'").run();
    db2.exec('CREATE TABLE extra (x INTEGER)');
    db2.close();
    await expect(h.open()).rejects.toMatchObject({ code: 'SCHEMA_MISMATCH' });
    const db3 = new Database(dbPath());
    db3.exec('DROP TABLE extra');
    db3.prepare('DELETE FROM kysely_migration').run();
    db3.close();
    await expect(h.open()).rejects.toMatchObject({ code: 'LEGACY_SCHEMA' });
    const db4 = new Database(dbPath());
    db4.exec('DROP TABLE kysely_migration');
    db4.close();
    await expect(h.open()).rejects.toMatchObject({ code: 'UNKNOWN_SCHEMA' });
  });

  it('refuses crash hooks under the old string key (they are reachable only through the test-only CRASH_HOOKS symbol)', async () => {
    const hooks = { at: () => undefined };
    await expect(SqliteRecoveryContractStore.open({ ...h.options(), crashHooks: hooks } as never)).rejects.toThrow(TypeError);
    await expect(
      SqliteConsumptionStore.open({ directory: h.dir, masterKey: h.masterKey, clock: () => T0, crashHooks: hooks } as never),
    ).rejects.toThrow(TypeError);
    await expect(SqliteRecoveryContractStore.open({ ...h.options(), [CRASH_HOOKS]: { at: 1 } } as never)).rejects.toThrow(TypeError);
    const s = await SqliteRecoveryContractStore.open({ ...h.options(), [CRASH_HOOKS]: hooks });
    s.close();
  });

  it('creates a fresh store with owner-only files', async () => {
    const s = await h.open();
    const { statSync } = await import('node:fs');
    expect(statSync(dbPath()).mode & 0o777).toBe(0o600);
    expect(statSync(h.anchorFile).mode & 0o777).toBe(0o600);
    expect(JSON.parse((await import('node:fs')).readFileSync(h.anchorFile, 'utf8'))).toMatchObject({
      v: 1,
      sequence: 0,
      store_id: s.storeId,
    });
  });
});

describe('authorization-consumption store', () => {
  const open = () => SqliteConsumptionStore.open({ directory: h.dir, masterKey: h.masterKey, clock: () => T0 });

  it('tryConsume is true exactly once, also across restarts', async () => {
    const c = await open();
    expect(c.isConsumed('auth-1')).toBe(false);
    expect(c.tryConsume('auth-1')).toBe(true);
    expect(c.tryConsume('auth-1')).toBe(false);
    expect(c.tryConsume('auth-2')).toBe(true);
    c.close();
    const d = await open();
    expect(d.tryConsume('auth-1')).toBe(false);
    expect(d.isConsumed('auth-2')).toBe(true);
    d.close();
  });

  it('a corrupted row is an error, never "not consumed": refused at open, and by a store already open', async () => {
    const c = await open();
    c.tryConsume('auth-1');
    c.tryConsume('auth-2');
    const db = new Database(join(h.dir, 'consumption.sqlite'));
    db.prepare("UPDATE consumed_authorizations SET consumed_at = consumed_at + 1 WHERE authorization_id = 'auth-1'").run();
    expect(() => c.tryConsume('auth-1')).toThrow(expect.objectContaining({ name: 'ConsumptionIntegrityError', code: 'ROW_MAC' }));
    expect(() => c.isConsumed('auth-1')).toThrow(expect.objectContaining({ code: 'ROW_MAC' }));
    const row = db.prepare("SELECT mac FROM consumed_authorizations WHERE authorization_id = 'auth-2'").get() as { mac: Buffer };
    row.mac[0] = (row.mac[0] ?? 0) ^ 1;
    db.prepare("UPDATE consumed_authorizations SET mac = ? WHERE authorization_id = 'auth-2'").run(row.mac);
    db.close();
    // the last row's MAC no longer matches the head the metadata authenticates
    expect(() => c.isConsumed('auth-2')).toThrow(expect.objectContaining({ name: 'ConsumptionIntegrityError', code: 'CHAIN_BROKEN' }));
    expect(() => c.tryConsume('auth-3')).toThrow(expect.objectContaining({ code: 'CHAIN_BROKEN' }));
    c.close();
    await expect(open()).rejects.toMatchObject({ name: 'ConsumptionIntegrityError' });
  });

  it('a deleted row (in the middle or the last one) is a CHAIN_BROKEN error, never "not consumed"', async () => {
    for (const victim of ['auth-2', 'auth-3']) {
      const dir = mkdtempSync(join(tmpdir(), 'cs-consume-'));
      try {
        const openIn = () => SqliteConsumptionStore.open({ directory: dir, masterKey: h.masterKey, clock: () => T0 });
        const c = await openIn();
        for (const id of ['auth-1', 'auth-2', 'auth-3']) expect(c.tryConsume(id)).toBe(true);
        const db = new Database(join(dir, 'consumption.sqlite'));
        db.prepare('DELETE FROM consumed_authorizations WHERE authorization_id = ?').run(victim);
        db.close();
        expect(() => c.isConsumed(victim)).toThrow(expect.objectContaining({ name: 'ConsumptionIntegrityError', code: 'CHAIN_BROKEN' }));
        expect(() => c.tryConsume(victim)).toThrow(expect.objectContaining({ code: 'CHAIN_BROKEN' }));
        expect(() => c.tryConsume('auth-new')).toThrow(expect.objectContaining({ code: 'CHAIN_BROKEN' }));
        c.close();
        await expect(openIn()).rejects.toMatchObject({ name: 'ConsumptionIntegrityError', code: 'CHAIN_BROKEN' });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  it('with an anchor: a restored older copy of consumption.sqlite is refused (BEHIND), as are a missing anchor or file', async () => {
    const anchorFile = join(h.anchorDir, 'consumption-anchor.json');
    const openAnchored = () =>
      SqliteConsumptionStore.open({ directory: h.dir, masterKey: h.masterKey, clock: () => T0, anchor: { file: anchorFile } });
    const c = await openAnchored();
    expect(c.tryConsume('auth-1')).toBe(true);
    c.close();
    const file = join(h.dir, 'consumption.sqlite');
    const backup = readFileSync(file);
    const d = await openAnchored();
    expect(d.tryConsume('auth-2')).toBe(true);
    d.close();
    const current = readFileSync(file);
    writeFileSync(file, backup);
    await expect(openAnchored()).rejects.toMatchObject({ name: 'StoreRollbackError', code: 'BEHIND' });
    writeFileSync(file, current);
    const e = await openAnchored();
    expect(e.isConsumed('auth-2')).toBe(true);
    e.close();
    // the anchor is refused next to the file it guards; a missing anchor next to history, or a missing file next to an anchor
    await expect(
      SqliteConsumptionStore.open({ directory: h.dir, masterKey: h.masterKey, clock: () => T0, anchor: { file: join(h.dir, 'a.json') } }),
    ).rejects.toMatchObject({
      code: 'ANCHOR_IN_STORE_DIRECTORY',
    });
    renameSync(anchorFile, `${anchorFile}.aside`);
    await expect(openAnchored()).rejects.toMatchObject({ name: 'StoreRollbackError', code: 'ANCHOR_MISSING' });
    renameSync(`${anchorFile}.aside`, anchorFile);
    rmSync(file);
    await expect(openAnchored()).rejects.toMatchObject({ name: 'StoreRollbackError', code: 'STORE_MISSING' });
  });

  it('refuses a wrong key and malformed ids', async () => {
    (await open()).close();
    await expect(
      SqliteConsumptionStore.open({ directory: h.dir, masterKey: new Uint8Array(32).fill(9), clock: () => T0 }),
    ).rejects.toMatchObject({
      code: 'META_MAC',
    });
    const c = await open();
    expect(() => c.tryConsume('../etc')).toThrow(TypeError);
    c.close();
  });
});
