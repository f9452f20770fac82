// recordRefusal: a value-free refusal row in the same HMAC-chained audit, its own transaction, anchor advanced.
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contractInput, errorOf, hex, makeHarness, preparedConfirmed } from './helpers.js';
import type { Harness } from './helpers.js';

let h: Harness;
beforeEach(() => {
  h = makeHarness();
});
afterEach(() => h.cleanup());

const dbPath = () => join(h.dir, 'contracts.sqlite');

describe('recordRefusal', () => {
  it('appends one chained row with the class, the gate and ids only, and nothing else changes', async () => {
    const s = await h.open();
    const c = preparedConfirmed(s, contractInput({ target: 1 }));
    const before = s.listAuditEvents({ limit: 1000 });
    const row = s.recordRefusal({ gate: 'FRESHNESS', refusalClass: 'STALE', operationId: 'op-abc' });
    const row2 = s.recordRefusal({ gate: 'CONFIRMATION', refusalClass: 'ANOMALY', contractId: c.contract_id, artifactDigest: hex(0xab) });
    const after = s.listAuditEvents({ limit: 1000 });
    expect(after).toHaveLength(before.length + 2);
    expect(after.at(-2)).toEqual(row);
    expect(after.at(-1)).toEqual(row2);
    expect(row).toMatchObject({
      sequence: (before.at(-1)?.sequence ?? 0) + 1,
      kind: 'refusal',
      contract_id: '',
      operation_id: 'op-abc',
      event: 'FRESHNESS',
      outcome_class: 'STALE',
      to_state: null,
      state_version: null,
      evidence_digest: null,
    });
    // a refusal that names a contract is listed with that contract's rows
    expect(s.listAuditEvents({ contractId: c.contract_id }).at(-1)).toMatchObject({
      kind: 'refusal',
      outcome_class: 'ANOMALY',
      evidence_digest: hex(0xab),
    });
    expect(s.load(c.contract_id)).toEqual(c);
    expect(s.verifyAuditChain()).toEqual({ ok: true });
    s.close();
    // the whole chain (with the refusal rows) verifies at open
    const t = await h.open();
    expect(t.listAuditEvents({ limit: 1000 })).toHaveLength(after.length);
  });

  it('refuses anything value-bearing, unknown or malformed, without echoing it and without writing', async () => {
    const s = await h.open();
    const secret = 'SENTINEL-description do not leak';
    const bad: unknown[] = [
      { gate: 'FRESHNESS', refusalClass: 'STALE', reason: secret },
      { gate: secret, refusalClass: 'ANOMALY' },
      { gate: 'freshness', refusalClass: 'ANOMALY' },
      { gate: 'REPLAY', refusalClass: 'OTHER' },
      { gate: 'REPLAY', refusalClass: 'ANOMALY', operationId: secret },
      { gate: 'REPLAY', refusalClass: 'ANOMALY', contractId: 'a b' },
      { gate: 'REPLAY', refusalClass: 'ANOMALY', artifactDigest: 'AB'.repeat(32) },
      { gate: 'REPLAY' },
      null,
      'ANOMALY',
    ];
    for (const input of bad) {
      const e = errorOf(() => s.recordRefusal(input as never));
      expect(e.name).toBe('TypeError');
      expect(e.message).toContain('recordRefusal');
      expect(e.message).not.toContain('SENTINEL');
    }
    expect(s.listAuditEvents({ limit: 1000 })).toEqual([]);
    expect(JSON.stringify(s.listAuditEvents({ limit: 1000 }))).not.toContain('SENTINEL');
  });

  it('advances the anti-rollback anchor: a copy from before the refusal is refused as BEHIND', async () => {
    const s = await h.open();
    preparedConfirmed(s, contractInput({ target: 1 }));
    s.close();
    copyFileSync(dbPath(), join(h.anchorDir, 'old.sqlite'));
    const t = await h.open();
    t.recordRefusal({ gate: 'REPLAY', refusalClass: 'ANOMALY' });
    t.close();
    copyFileSync(join(h.anchorDir, 'old.sqlite'), dbPath());
    await expect(h.open()).rejects.toMatchObject({ name: 'StoreRollbackError', code: 'BEHIND' });
  });

  it('a tampered refusal row breaks the chain at its sequence', async () => {
    const s = await h.open();
    const row = s.recordRefusal({ gate: 'SIGNATURE', refusalClass: 'ANOMALY' });
    s.recordRefusal({ gate: 'FRESHNESS', refusalClass: 'STALE' });
    s.close();
    const db = new Database(dbPath());
    try {
      db.prepare('UPDATE audit_events SET body = ? WHERE sequence = ?').run(
        Buffer.from(JSON.stringify({ ...row, outcome_class: 'STALE' })),
        row.sequence,
      );
    } finally {
      db.close();
    }
    await expect(h.open()).rejects.toMatchObject({ name: 'AuditChainError', firstBrokenSequence: row.sequence });
  });
});
