// The store calls behind `pfsense-mcp admin`: cancel, integrityReport and backupTo.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteConsumptionStore, SqliteRecoveryContractStore } from '../src/index.js';
import {
  SENTINEL_IDENTITY,
  SENTINEL_INTENT,
  SENTINEL_SNAPSHOT,
  contractInput,
  errorOf,
  makeHarness,
  preparedConfirmed,
  verified,
} from './helpers.js';
import type { Harness } from './helpers.js';

let h: Harness;
beforeEach(() => {
  h = makeHarness();
});
afterEach(() => h.cleanup());

describe('cancel', () => {
  it('takes back a PREPARED contract: EXPIRED, outcome CANCELLED, audited; the target can be prepared again', async () => {
    const store = await h.open();
    const c = store.create(contractInput());
    const p = store.markPrepared(c.contract_id, c.state_version);
    const cancelled = store.cancel(p.contract_id);
    expect(cancelled).toMatchObject({ state: 'EXPIRED', state_version: p.state_version + 1, last_outcome_class: 'CANCELLED' });
    const last = store.listAuditEvents({ contractId: c.contract_id }).at(-1);
    expect(last).toMatchObject({ from_state: 'PREPARED', to_state: 'EXPIRED', outcome_class: 'CANCELLED' });
    expect(() => preparedConfirmed(store, contractInput())).not.toThrow();
  });

  it('refuses anything but PREPARED and an unknown id', async () => {
    const store = await h.open();
    const v = verified(store, contractInput({ target: 9 }));
    expect(errorOf(() => store.cancel(v.contract_id))).toMatchObject({ name: 'PreconditionError', code: 'WRONG_STATE' });
    expect(errorOf(() => store.cancel('no-such-contract'))).toMatchObject({ name: 'ContractNotFoundError' });
    expect(() => store.cancel('../x')).toThrow(TypeError);
  });
});

describe('integrityReport', () => {
  it('counts rows and shows head and anchor of a sound store', async () => {
    const store = await h.open();
    verified(store, contractInput());
    const r = store.integrityReport();
    expect(r.failure).toBeNull();
    expect(r.contracts).toBe(1);
    expect(r.auditRows).toBeGreaterThan(3);
    expect(r.head.sequence).toBe(r.auditRows);
    expect(r.anchor).toEqual({ sequence: r.head.sequence, headMac: r.head.mac });
    expect(r.reservations).toBe(0);
  });

  it('reports, not throws, the first failure of the same check as verifyIntegrity: a tampered row, then an anchor of another store', async () => {
    const store = await h.open();
    const v = verified(store, contractInput());
    store.close();
    h.raw((db) => {
      const row = db.prepare('SELECT record FROM contracts WHERE contract_id = ?').get(v.contract_id) as { record: Buffer };
      db.prepare('UPDATE contracts SET record = ? WHERE contract_id = ?').run(
        Buffer.from(row.record.toString('utf8').replace('"VERIFIED"', '"VERIFIED" ')),
        v.contract_id,
      );
    });
    const opened = await h.open({ verifyOnOpen: false });
    const r = opened.integrityReport();
    expect(r.failure).toEqual({ table: 'contracts', row: v.contract_id, kind: 'RECORD_MAC' });
    expect(opened.verifyIntegrity()).toEqual({
      ok: false,
      failure: { table: 'contracts', contractId: v.contract_id, sequence: null, kind: 'RECORD_MAC' },
    });
    expect(r).toMatchObject({ contracts: 1, reservations: 0, anchor: { sequence: r.head.sequence } });
    // The anchor now names another store (written while this one is open): the anchor is compared first.
    const mark = JSON.parse(readFileSync(h.anchorFile, 'utf8')) as Record<string, unknown>;
    expect(mark).toHaveProperty('store_id');
    const otherDir = mkdtempSync(join(tmpdir(), 'cs-other-'));
    const other = await SqliteRecoveryContractStore.open(
      h.options({ directory: otherDir, anchor: { file: join(h.anchorDir, 'other.json') } }),
    );
    other.create(contractInput());
    other.close();
    rmSync(otherDir, { recursive: true, force: true });
    copyFileSync(join(h.anchorDir, 'other.json'), h.anchorFile);
    expect(opened.integrityReport().failure).toEqual({ table: 'anchor', row: '1', kind: 'STORE_MISMATCH' });
    opened.close();
  });
});

describe('backupTo', () => {
  it('writes consistent 0600 copies of both stores that open with the same key, never overwriting', async () => {
    const store = await h.open();
    verified(store, contractInput());
    const out = mkdtempSync(join(tmpdir(), 'cs-backup-'));
    try {
      await store.backupTo(join(out, 'contracts.sqlite'));
      expect(statSync(join(out, 'contracts.sqlite')).mode & 0o777).toBe(0o600);
      await expect(store.backupTo(join(out, 'contracts.sqlite'))).rejects.toMatchObject({ code: 'EXISTS' });
      const consumption = await SqliteConsumptionStore.open({ directory: h.dir, masterKey: h.masterKey, clock: () => h.clock.now });
      expect(consumption.tryConsume('auth-1')).toBe(true);
      await consumption.backupTo(join(out, 'consumption.sqlite'));
      consumption.close();
      const copy = await SqliteConsumptionStore.open({ directory: out, masterKey: h.masterKey, clock: () => h.clock.now });
      expect(copy.isConsumed('auth-1')).toBe(true);
      copy.close();
      const anchorDir = mkdtempSync(join(tmpdir(), 'cs-backup-anchor-'));
      const restored = await SqliteRecoveryContractStore.reanchorRestoredStore({
        ...h.options(),
        directory: out,
        anchor: { file: join(anchorDir, 'a.json') },
      });
      expect(restored.list()).toHaveLength(1);
      restored.close();
      rmSync(anchorDir, { recursive: true, force: true });
      expect(existsSync(join(out, 'contracts.sqlite-journal'))).toBe(false);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe('revealTargetIdentity', () => {
  it('returns only the decrypted target identity (never intent or snapshot); PURGED once retention zeroed the artifacts', async () => {
    const store = await h.open({ retentionMs: 0 });
    const p = preparedConfirmed(store, contractInput({ target: 4 }));
    const shown = store.revealTargetIdentity(p.contract_id);
    expect(shown).toEqual({ alias_name: SENTINEL_IDENTITY });
    expect(JSON.stringify(shown)).not.toContain(SENTINEL_INTENT);
    expect(JSON.stringify(shown)).not.toContain(SENTINEL_SNAPSHOT);
    expect(errorOf(() => store.revealTargetIdentity('ctr-unknown'))).toMatchObject({ name: 'ContractNotFoundError' });
    store.cancel(p.contract_id);
    store.purgeExpiredArtifacts();
    expect(errorOf(() => store.revealTargetIdentity(p.contract_id))).toMatchObject({ name: 'ProtectedArtifactError', code: 'PURGED' });
  });
});

describe('rateWindows', () => {
  it('shows the windows in force from the stored row: running cooldowns (remaining ms), PREPARE windows, in-flight and reconciliation counts', async () => {
    const store = await h.open({ rateLimits: {} });
    expect(store.rateWindows()).toMatchObject({
      targetCooldowns: [],
      targetWindows: [],
      capabilityWindows: [],
      inFlight: { used: 0, limit: 1 },
      reconciliation: { used: 0, limit: 3 },
    });
    const v = verified(store, contractInput({ target: 5 }));
    h.clock.now += 10_000;
    const view = store.rateWindows();
    expect(view.targetCooldowns).toEqual([{ targetDigest: v.target_identity_digest, remainingMs: 50_000 }]);
    expect(view.targetWindows).toEqual([{ targetDigest: v.target_identity_digest, used: 1, limit: 10 }]);
    expect(view.capabilityWindows).toEqual([{ capability: 'ALIAS_WRITE', used: 1, limit: 60 }]);
    expect(view.clockRegression).toBe(false);
    expect(JSON.stringify(view)).not.toMatch(/SENTINEL/);
    // Past the cooldown it is no longer in force; the hour's window still counts the PREPARE.
    h.clock.now += 50_000;
    expect(store.rateWindows()).toMatchObject({ targetCooldowns: [], capabilityWindows: [{ used: 1 }] });
    h.clock.now += 3_600_000;
    expect(store.rateWindows()).toMatchObject({ targetWindows: [], capabilityWindows: [] });
  });
});
