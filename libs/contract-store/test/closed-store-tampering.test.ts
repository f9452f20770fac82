// Someone who can write the database file while the store is closed, but holds no key, deletes rows or
// writes back older authentic ones. Every such edit must make the next open fail closed with an error that
// names the table and the contract (never a value), and the library-level integrity check must report the
// same first failure; an untouched store and an accepted restore still open. Real SQLite files in temp dirs,
// the product's default rate limits (the 60 s cooldown is one of the things a deleted row would reset).
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExecutorContractStore } from '../src/executor-entry.js';
import { SqliteRecoveryContractStore } from '../src/index.js';
import type { StoreIntegrityFailure } from '../src/index.js';
import {
  SENTINEL_IDENTITY,
  SENTINEL_INTENT,
  SENTINEL_SNAPSHOT,
  contractInput,
  executing,
  hex,
  makeHarness,
  preparedConfirmed,
  rollingBack,
} from './helpers.js';
import type { Harness } from './helpers.js';

let h: Harness;
beforeEach(() => {
  h = makeHarness();
});
afterEach(() => h.cleanup());

const dbPath = () => h.dbPath;
const DEFAULTS = { rateLimits: {} };

interface ContractRowCopy {
  contract_id: string;
  state: string;
  state_version: number;
  expires_at: number;
  terminal_at: number | null;
  record: Buffer;
  mac: Buffer;
}

const contractRow = (db: Database.Database, id: string) =>
  db
    .prepare('SELECT contract_id, state, state_version, expires_at, terminal_at, record, mac FROM contracts WHERE contract_id = ?')
    .get(id) as ContractRowCopy;
const rateRow = (db: Database.Database) =>
  db.prepare('SELECT scope, state, mac FROM rate_windows').get() as { scope: string; state: Buffer; mac: Buffer };

interface Seeded {
  /** VERIFIED on target 1 (its cooldown is running). */
  readonly verifiedId: string;
  /** RECONCILIATION on target 2 (holds the target's reservation). */
  readonly reconciliationId: string;
  /** PREPARED on target 3. */
  readonly preparedId: string;
  /** The VERIFIED contract's own authentic row from when it was PREPARED and confirmed. */
  readonly olderVerifiedRow: ContractRowCopy;
  /** The rate row from before the VERIFIED contract's cooldown started. */
  readonly olderRateRow: { scope: string; state: Buffer; mac: Buffer };
}

/** A store with a VERIFIED, a RECONCILIATION and a PREPARED contract, and two older authentic rows; closed. */
async function seeded(): Promise<Seeded> {
  const s = await h.open(DEFAULTS);
  const ex = ExecutorContractStore.of(s);
  const c1 = preparedConfirmed(s, contractInput({ target: 1 }));
  // Copies of authentic rows as they are now (a reader beside the open store sees every commit).
  const olderVerifiedRow = h.raw((db) => contractRow(db, c1.contract_id));
  const olderRateRow = h.raw((db) => rateRow(db));
  const e1 = ex.beginExecution(c1.contract_id, c1.state_version);
  ex.markExecutionVerified(e1.contract_id, e1.state_version, {
    verifiedTargetFingerprint: hex(0xf2),
    verifiedLifecycleLocator: e1.lifecycle_locator,
  });
  const e2 = executing(s, contractInput({ target: 2 }));
  ex.markExecutionAmbiguous(e2.contract_id, e2.state_version, 'RESPONSE_LOST');
  const c3 = s.create(contractInput({ target: 3 }));
  s.markPrepared(c3.contract_id, c3.state_version);
  // the cooldown of target 1 is running: a new PREPARE there is refused
  expect(() => s.precheckCreate(contractInput({ target: 1 }))).toThrow(/TARGET_COOLDOWN/);
  s.close();
  return { verifiedId: c1.contract_id, reconciliationId: e2.contract_id, preparedId: c3.contract_id, olderVerifiedRow, olderRateRow };
}

const VALUES = [SENTINEL_IDENTITY, SENTINEL_INTENT, SENTINEL_SNAPSHOT];

/** The next open fails closed naming table, contract and kind; the closed-store check reports the same, writing nothing. */
async function expectFailClosed(expected: Omit<StoreIntegrityFailure, 'sequence'>, errorName = 'StoreConsistencyError'): Promise<void> {
  const files = fileHashes();
  const error = await h.open(DEFAULTS).then(
    (opened) => {
      opened.close();
      return null;
    },
    (e: unknown) => e,
  );
  expect(error).toMatchObject({ name: errorName, table: expected.table, contractId: expected.contractId });
  expect((error as { code: string }).code).toBe(expected.kind);
  if (expected.contractId !== null) expect((error as Error).message).toContain(expected.contractId);
  for (const value of VALUES) expect((error as Error).message).not.toContain(value);
  const report = await SqliteRecoveryContractStore.verifyIntegrity(h.options(DEFAULTS));
  expect(report).toEqual({ ok: false, failure: { ...expected, sequence: null } });
  expect(JSON.stringify(report)).not.toMatch(/SENTINEL/);
  expect(fileHashes()).toEqual(files);
}

function fileHashes(): { db: string; anchor: string } {
  const hash = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');
  return { db: hash(dbPath()), anchor: hash(h.anchorFile) };
}

describe('a closed store edited without the keys fails closed at the next open', () => {
  it('positive control: an untouched store opens, and the integrity check is ok', async () => {
    const seed = await seeded();
    const report = await SqliteRecoveryContractStore.verifyIntegrity(h.options(DEFAULTS));
    expect(report).toMatchObject({ ok: true, contracts: 3 });
    const s = await h.open(DEFAULTS);
    expect(s.load(seed.reconciliationId).state).toBe('RECONCILIATION');
    expect(s.verifyIntegrity()).toEqual(report);
  });

  it('positive control across every kind of row history: resolutions, a released ROLLBACK_FAILED, expiry, purge, refusals, an EXECUTING row', async () => {
    const s = await h.open(); // loose limits: many contracts at once
    const ex = ExecutorContractStore.of(s);
    // RECONCILIATION resolved forward-applied (reservation released), and one left open (reservation held)
    const a = executing(s, contractInput({ target: 1 }));
    const ra = ex.markExecutionAmbiguous(a.contract_id, a.state_version, 'RESPONSE_LOST');
    s.resolveReconciliation(ra.contract_id, h.authorities.resolution(ra, 'FORWARD_APPLIED'));
    const b = executing(s, contractInput({ target: 2 }));
    ex.markExecutionAmbiguous(b.contract_id, b.state_version, 'RESPONSE_LOST');
    // ROLLBACK_FAILED: one released by a signed release, one still holding its target
    const c = rollingBack(s, contractInput({ target: 3 }));
    const fc = ex.markRollbackFailed(c.contract_id, c.state_version, 'VERIFIED_FAILURE');
    s.releaseRollbackFailedReservation(fc.contract_id, h.authorities.release(fc));
    const d = rollingBack(s, contractInput({ target: 4 }));
    ex.markRollbackFailed(d.contract_id, d.state_version, 'VERIFIED_FAILURE');
    // an expired PREPARED contract, a refusal naming a contract, an EXECUTING contract
    s.create(contractInput({ target: 5, expires_at: h.clock.now + 1000 }));
    s.recordRefusal({ gate: 'CONFIRMATION', refusalClass: 'ANOMALY', contractId: b.contract_id });
    executing(s, contractInput({ target: 6 }));
    h.clock.now += 1000;
    expect(s.expire()).toHaveLength(1);
    // retention: everything terminal long enough ago has its artifacts purged
    h.clock.now += 31 * 24 * 3_600_000;
    expect(s.purgeExpiredArtifacts().length).toBeGreaterThan(0);
    s.close();
    const reopened = await h.open();
    expect(reopened.verifyIntegrity()).toMatchObject({ ok: true, contracts: 6 });
    reopened.close();
    expect(await SqliteRecoveryContractStore.verifyIntegrity(h.options())).toMatchObject({ ok: true, contracts: 6 });
  });

  it('deleting the rate windows (every cooldown reset): rate_windows ROW_MISSING', async () => {
    await seeded();
    h.raw((db) => db.prepare('DELETE FROM rate_windows').run());
    await expectFailClosed({ table: 'rate_windows', contractId: null, kind: 'ROW_MISSING' });
  });

  it('writing back the older authentic rate row (before the cooldown started): rate_windows ROW_STALE', async () => {
    const seed = await seeded();
    h.raw((db) =>
      db
        .prepare('UPDATE rate_windows SET state = ?, mac = ? WHERE scope = ?')
        .run(seed.olderRateRow.state, seed.olderRateRow.mac, seed.olderRateRow.scope),
    );
    await expectFailClosed({ table: 'rate_windows', contractId: null, kind: 'ROW_STALE' });
  });

  it('deleting a RECONCILIATION contract with its reservation and artifacts: contracts ROW_MISSING naming it', async () => {
    const seed = await seeded();
    h.raw((db) => {
      db.prepare('DELETE FROM protected_artifacts WHERE contract_id = ?').run(seed.reconciliationId);
      db.prepare('DELETE FROM target_reservations WHERE contract_id = ?').run(seed.reconciliationId);
      db.prepare('DELETE FROM contracts WHERE contract_id = ?').run(seed.reconciliationId);
    });
    await expectFailClosed({ table: 'contracts', contractId: seed.reconciliationId, kind: 'ROW_MISSING' });
  });

  it('deleting a PREPARED contract (and its artifacts): contracts ROW_MISSING naming it', async () => {
    const seed = await seeded();
    h.raw((db) => {
      db.prepare('DELETE FROM protected_artifacts WHERE contract_id = ?').run(seed.preparedId);
      db.prepare('DELETE FROM contracts WHERE contract_id = ?').run(seed.preparedId);
    });
    await expectFailClosed({ table: 'contracts', contractId: seed.preparedId, kind: 'ROW_MISSING' });
  });

  it('writing back an older authentic row of a contract (VERIFIED back to PREPARED and confirmed): contracts ROW_STALE', async () => {
    const seed = await seeded();
    const old = seed.olderVerifiedRow;
    h.raw((db) =>
      db
        .prepare(
          'UPDATE contracts SET state = ?, state_version = ?, expires_at = ?, terminal_at = ?, record = ?, mac = ? WHERE contract_id = ?',
        )
        .run(old.state, old.state_version, old.expires_at, old.terminal_at, old.record, old.mac, old.contract_id),
    );
    await expectFailClosed({ table: 'contracts', contractId: seed.verifiedId, kind: 'ROW_STALE' });
  });

  it('deleting only the reservation of a RECONCILIATION contract: target_reservations ROW_MISSING naming it', async () => {
    const seed = await seeded();
    h.raw((db) => db.prepare('DELETE FROM target_reservations WHERE contract_id = ?').run(seed.reconciliationId));
    await expectFailClosed({ table: 'target_reservations', contractId: seed.reconciliationId, kind: 'ROW_MISSING' });
  });

  it('deleting one protected artifact of an unpurged contract: protected_artifacts ROW_MISSING naming it', async () => {
    const seed = await seeded();
    h.raw((db) => db.prepare("DELETE FROM protected_artifacts WHERE contract_id = ? AND purpose = 'snapshot'").run(seed.reconciliationId));
    await expectFailClosed({ table: 'protected_artifacts', contractId: seed.reconciliationId, kind: 'ROW_MISSING' });
  });

  it('deleting the newest audit rows: the anchor says the database is behind', async () => {
    await seeded();
    h.raw((db) => db.prepare('DELETE FROM audit_events WHERE sequence = (SELECT max(sequence) FROM audit_events)').run());
    await expect(h.open(DEFAULTS)).rejects.toMatchObject({ name: 'StoreRollbackError', code: 'BEHIND' });
    const report = await SqliteRecoveryContractStore.verifyIntegrity(h.options(DEFAULTS));
    expect(report).toMatchObject({ ok: false, failure: { table: 'anchor', kind: 'BEHIND' } });
  });

  it('an accepted restore (the operator re-anchors a backup) opens and verifies', async () => {
    await seeded();
    const backup = join(h.anchorDir, 'backup.sqlite');
    copyFileSync(dbPath(), backup);
    const s = await h.open(DEFAULTS);
    s.create(contractInput({ target: 4 }));
    s.close();
    copyFileSync(backup, dbPath());
    await expect(h.open(DEFAULTS)).rejects.toMatchObject({ name: 'StoreRollbackError' });
    renameSync(h.anchorFile, `${h.anchorFile}.moved-aside`);
    const restored = await SqliteRecoveryContractStore.reanchorRestoredStore(h.options(DEFAULTS));
    expect(restored.verifyIntegrity()).toMatchObject({ ok: true, contracts: 3 });
    restored.close();
    const reopened = await h.open(DEFAULTS);
    expect(reopened.verifyIntegrity()).toMatchObject({ ok: true });
  });

  it('the integrity check of a missing database with its anchor present reports the deletion, without creating a file', async () => {
    await seeded();
    renameSync(dbPath(), `${dbPath()}.gone`);
    const report = await SqliteRecoveryContractStore.verifyIntegrity(h.options(DEFAULTS));
    expect(report).toMatchObject({ ok: false, failure: { table: 'anchor', kind: 'STORE_MISSING' } });
    expect(() => readFileSync(dbPath())).toThrow();
  });
});
