// The one opener of both store files (src/store/open-store-database.ts): the pragmas every store file gets, the two
// named differences between the stores, and the refusals both now share.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteConsumptionStore } from '../src/index.js';
import { openStoreDatabase } from '../src/store/open-store-database.js';
import type { StoreDatabaseKind } from '../src/store/open-store-database.js';
import { CONTRACT_STORE_DATABASE } from '../src/store/open-store.js';
import { CONSUMPTION_STORE_DATABASE } from '../src/consumption/sqlite-consumption-store.js';
import { T0, makeHarness } from './helpers.js';
import type { Harness } from './helpers.js';

let h: Harness;
beforeEach(() => {
  h = makeHarness();
});
afterEach(() => h.cleanup());

async function pragmasOf(kind: StoreDatabaseKind): Promise<Record<string, unknown>> {
  const { db } = await openStoreDatabase(
    {
      directory: h.dir,
      masterKey: h.masterKey,
      clock: () => T0,
      busyTimeoutMs: 1234,
      anchor: { file: join(h.anchorDir, 'pragmas.anchor') },
    },
    { ...kind, fn: 'test', ifMissing: 'create', migrate: false },
  );
  try {
    const p = (name: string) => db.pragma(name, { simple: true });
    return {
      journal_mode: p('journal_mode'),
      synchronous: p('synchronous'),
      secure_delete: p('secure_delete'),
      busy_timeout: p('busy_timeout'),
      foreign_keys: p('foreign_keys'),
      integer: typeof (db.prepare('SELECT 9007199254740991 AS n').get() as { n: unknown }).n,
    };
  } finally {
    db.close();
  }
}

describe('openStoreDatabase', () => {
  it('gives every store file WAL, synchronous=FULL, secure_delete and the busy timeout; the consumption store keeps the driver defaults', async () => {
    const modes = { journal_mode: 'wal', synchronous: 2, secure_delete: 1, busy_timeout: 1234, foreign_keys: 1, integer: 'number' };
    expect(await pragmasOf(CONTRACT_STORE_DATABASE)).toEqual(modes);
    // Not set by the opener, named as such: the driver's defaults, which today are the same modes.
    expect(CONSUMPTION_STORE_DATABASE).toMatchObject({ foreignKeys: 'driver-default', integers: 'driver-default' });
    expect(CONTRACT_STORE_DATABASE).toMatchObject({ foreignKeys: 'on', integers: 'numbers' });
    expect(await pragmasOf(CONSUMPTION_STORE_DATABASE)).toEqual(modes);
  });

  it('refuses a master key file inside the store directory for the consumption store too', async () => {
    const keyFile = join(h.dir, 'master.key');
    writeFileSync(keyFile, Buffer.alloc(32, 1), { mode: 0o600 });
    await expect(SqliteConsumptionStore.open({ directory: h.dir, masterKeyFile: keyFile, clock: () => T0 })).rejects.toMatchObject({
      name: 'StoreFileError',
      code: 'KEY_IN_STORE_DIRECTORY',
    });
  });

  it('reports a consumption file deleted next to its anchor with the anchor sequence, as the contract store does', async () => {
    const anchor = { file: join(h.anchorDir, 'consumption.anchor') };
    const s = await SqliteConsumptionStore.open({ directory: h.dir, masterKey: h.masterKey, clock: () => T0, anchor });
    expect(s.tryConsume('auth-1')).toBe(true);
    s.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(join(h.dir, `consumption.sqlite${suffix}`), { force: true });
    await expect(SqliteConsumptionStore.open({ directory: h.dir, masterKey: h.masterKey, clock: () => T0, anchor })).rejects.toMatchObject({
      name: 'StoreRollbackError',
      code: 'STORE_MISSING',
      anchorSequence: 1,
    });
  });
});
