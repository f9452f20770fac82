// A store written by the previous release (store schema 1: the rate row without its audit-head binding) opens
// only through an explicit migration, which authenticates the old rate row first; a store from a newer release
// is refused even with `migrate`. Real SQLite files in temp dirs, the product's default rate limits.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExecutorContractStore } from '../src/executor-entry.js';
import { STORE_SCHEMA_VERSION } from '../src/index.js';
import { contractInput, hex, makeHarness, preparedConfirmed } from './helpers.js';
import type { Harness } from './helpers.js';
import { rewriteAsPreviousRelease } from './previous-release-store.js';

let h: Harness;
beforeEach(() => {
  h = makeHarness();
});
afterEach(() => h.cleanup());

const dbPath = () => h.dbPath;
const DEFAULTS = { rateLimits: {} };
const hash = () => createHash('sha256').update(readFileSync(dbPath())).digest('hex');
const metaVersion = () => {
  const db = new Database(dbPath());
  try {
    return (db.prepare('SELECT schema_version FROM store_meta').get() as { schema_version: number }).schema_version;
  } finally {
    db.close();
  }
};

/** A VERIFIED contract on target 1 (its cooldown running) and a PREPARED one on target 2, then the old layout. */
async function previousReleaseStore(): Promise<{ verifiedId: string; preparedId: string }> {
  const s = await h.open(DEFAULTS);
  const c1 = preparedConfirmed(s, contractInput({ target: 1 }));
  const ex = ExecutorContractStore.of(s);
  const e1 = ex.beginExecution(c1.contract_id, c1.state_version);
  ex.markExecutionVerified(e1.contract_id, e1.state_version, {
    verifiedTargetFingerprint: hex(0xf2),
    verifiedLifecycleLocator: e1.lifecycle_locator,
  });
  const c2 = s.create(contractInput({ target: 2 }));
  s.markPrepared(c2.contract_id, c2.state_version);
  s.close();
  rewriteAsPreviousRelease(dbPath(), h.masterKey);
  return { verifiedId: c1.contract_id, preparedId: c2.contract_id };
}

describe('a store written by the previous release', () => {
  it('is refused without migrate (naming both versions), changes nothing, and opens after migrate with its windows kept', async () => {
    const seed = await previousReleaseStore();
    const before = hash();
    const refused = await h.open(DEFAULTS).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toMatchObject({
      name: 'SchemaVersionError',
      code: 'LEGACY_SCHEMA',
      storeVersion: 1,
      releaseVersion: STORE_SCHEMA_VERSION,
    });
    expect((refused as Error).message).toContain('admin migrate');
    expect(
      await h.open({ ...DEFAULTS, migrate: false }).then(
        () => 'opened',
        () => 'refused',
      ),
    ).toBe('refused');
    expect(hash()).toBe(before);

    const migrated = await h.open({ ...DEFAULTS, migrate: true });
    migrated.close();
    expect(metaVersion()).toBe(STORE_SCHEMA_VERSION);
    const s = await h.open(DEFAULTS);
    expect(s.verifyIntegrity()).toMatchObject({ ok: true, contracts: 2 });
    expect(s.load(seed.verifiedId).state).toBe('VERIFIED');
    // The windows came across: target 1's cooldown still runs, target 2 still has its outstanding PREPARED.
    expect(() => s.precheckCreate(contractInput({ target: 1 }))).toThrow(/TARGET_COOLDOWN/);
    expect(() => s.precheckCreate(contractInput({ target: 2 }))).toThrow(/TARGET_OUTSTANDING_PREPARED/);
    // And the store writes again, with the rate row bound to the new head.
    s.recordRefusal({ gate: 'CONFIRMATION', refusalClass: 'ANOMALY', contractId: seed.preparedId });
    s.close();
    const again = await h.open(DEFAULTS);
    expect(again.verifyIntegrity()).toMatchObject({ ok: true });
  });

  it('with a tampered rate row is refused by migrate (RATE_STATE_MAC) and left exactly as it was', async () => {
    await previousReleaseStore();
    const db = new Database(dbPath());
    const row = db.prepare('SELECT state FROM rate_windows').get() as { state: Buffer };
    // The old row without its MAC matching: e.g. an attacker clearing the cooldowns.
    db.prepare('UPDATE rate_windows SET state = ?').run(
      Buffer.from(row.state.toString('utf8').replace(/"[0-9a-f]{64}"/g, '"' + 'a'.repeat(64) + '"')),
    );
    db.close();
    const before = hash();
    await expect(h.open({ ...DEFAULTS, migrate: true })).rejects.toMatchObject({ name: 'RecordIntegrityError', code: 'RATE_STATE_MAC' });
    expect(hash()).toBe(before);
    expect(metaVersion()).toBe(1);
  });

  it('with a tampered contract row is refused by migrate and left at version 1 (the upgrade commits only a verified store)', async () => {
    const seed = await previousReleaseStore();
    const db = new Database(dbPath());
    db.prepare('UPDATE contracts SET mac = zeroblob(32) WHERE contract_id = ?').run(seed.preparedId);
    db.close();
    await expect(h.open({ ...DEFAULTS, migrate: true })).rejects.toMatchObject({
      name: 'RecordIntegrityError',
      contractId: seed.preparedId,
    });
    expect(metaVersion()).toBe(1);
  });
});

describe('a store written by a newer release', () => {
  it('is refused with and without migrate, naming both versions, before anything else is read', async () => {
    const s = await h.open(DEFAULTS);
    preparedConfirmed(s, contractInput({ target: 1 }));
    s.close();
    const db = new Database(dbPath());
    db.prepare('UPDATE store_meta SET schema_version = ?').run(STORE_SCHEMA_VERSION + 1);
    db.prepare("INSERT INTO kysely_migration (name, timestamp) VALUES ('0002_from_a_newer_release', 'x')").run();
    db.close();
    const before = hash();
    for (const migrate of [false, true]) {
      const e = await h.open({ ...DEFAULTS, migrate }).then(
        () => null,
        (x: unknown) => x,
      );
      expect(e).toMatchObject({
        name: 'SchemaVersionError',
        code: 'NEWER_SCHEMA',
        storeVersion: STORE_SCHEMA_VERSION + 1,
        releaseVersion: STORE_SCHEMA_VERSION,
      });
      expect((e as Error).message).toContain(`version ${STORE_SCHEMA_VERSION + 1}`);
      expect((e as Error).message).toContain(`version ${STORE_SCHEMA_VERSION}`);
    }
    expect(hash()).toBe(before);
  });
});
