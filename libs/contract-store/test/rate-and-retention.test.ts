import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExecutorContractStore } from '../src/executor-entry.js';
import { isPurgeable } from '../src/index.js';
import { rateRowBytes, rateRowMac } from '../src/rate/rate-gate.js';
import { loadStoreKeys } from '../src/store/store-keys.js';
import type { RecoveryContract, SqliteRecoveryContractStore } from '../src/index.js';
import {
  SENTINEL_IDENTITY,
  SENTINEL_INTENT,
  SENTINEL_SNAPSHOT,
  contractInput,
  errorOf,
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

// The provisional default limits (in flight 1, outstanding PREPARED per target 1, cooldown 60 s, lockout 3).
const adr015 = () => h.open({ rateLimits: {} });
const auditCount = (s: SqliteRecoveryContractStore) => s.listAuditEvents({ limit: 10_000 }).length;

describe('rate and blast-radius limits (policy decisions, persisted windows)', () => {
  it('refusal: a second outstanding PREPARED for a target is refused with no row and no audit', async () => {
    const s = await adr015();
    preparedConfirmed(s, contractInput({ target: 1 }));
    const before = auditCount(s);
    const e = errorOf(() => s.create(contractInput({ target: 1 })));
    expect(e).toMatchObject({ name: 'RateLimitError', code: 'RATE_LIMITED' });
    expect(e.message).toContain('TARGET_OUTSTANDING_PREPARED');
    expect(s.list()).toHaveLength(1);
    expect(auditCount(s)).toBe(before);
  });

  it('a refused PREPARE does not count toward the sliding window; admitted ones do, whatever their outcome', async () => {
    const s = await h.open({ rateLimits: { maxPreparesPerTargetPerWindow: 2, targetCooldownMs: 0 } });
    const later = () => contractInput({ target: 1, expires_at: h.clock.now + 1000 });
    s.create(later());
    for (let i = 0; i < 3; i += 1) expect(errorOf(() => s.create(later())).message).toContain('TARGET_OUTSTANDING_PREPARED');
    h.clock.now += 1000;
    expect(s.expire()).toHaveLength(1);
    expect(s.create(later()).state).toBe('PREPARING'); // the 2nd admitted prepare: the 3 refusals counted for nothing
    h.clock.now += 1000;
    expect(s.expire()).toHaveLength(1);
    expect(errorOf(() => s.create(later())).message).toContain('TARGET_RATE');
  });

  it('failure: FAILED releases the reservation and starts the target cooldown (survives a restart)', async () => {
    const s = await adr015();
    const c = executing(s, contractInput({ target: 1 }));
    const f = ExecutorContractStore.of(s).markExecutionFailed(c.contract_id, c.state_version, 'PROVEN_NONE');
    expect(s.holdsReservation(f.contract_id)).toBe(false);
    expect(errorOf(() => s.create(contractInput({ target: 1 }))).message).toContain('TARGET_COOLDOWN');
    s.close();
    const t = await adr015();
    h.clock.now += 59_999;
    expect(errorOf(() => t.create(contractInput({ target: 1 }))).message).toContain('TARGET_COOLDOWN');
    h.clock.now += 1;
    expect(t.create(contractInput({ target: 1 })).state).toBe('PREPARING');
  });

  it('success: VERIFIED releases the reservation and starts the cooldown', async () => {
    const s = await adr015();
    const c = executing(s, contractInput({ target: 1 }));
    const v = ExecutorContractStore.of(s).markExecutionVerified(c.contract_id, c.state_version, {
      verifiedTargetFingerprint: hex(2),
      verifiedLifecycleLocator: 7,
    });
    expect(s.holdsReservation(v.contract_id)).toBe(false);
    expect(errorOf(() => s.create(contractInput({ target: 1 }))).message).toContain('TARGET_COOLDOWN');
  });

  it('in flight: a second EXECUTING (other target) is refused at the EXECUTING boundary and stays PREPARED', async () => {
    const s = await adr015();
    const ex = ExecutorContractStore.of(s);
    const a = executing(s, contractInput({ target: 1 }));
    const b = preparedConfirmed(s, contractInput({ target: 2 }));
    expect(errorOf(() => ex.beginExecution(b.contract_id, b.state_version)).message).toContain('GLOBAL_IN_FLIGHT');
    expect(s.load(b.contract_id).state).toBe('PREPARED');
    ex.markExecutionVerified(a.contract_id, a.state_version, { verifiedTargetFingerprint: hex(2), verifiedLifecycleLocator: 7 });
    expect(ex.beginExecution(b.contract_id, b.state_version).state).toBe('EXECUTING');
  });

  it('RECONCILIATION: keeps the reservation, no cooldown, and 3 of them lock out every PREPARE until one is resolved', async () => {
    const s = await h.open({ rateLimits: { maxGlobalInFlight: 10, maxInFlightPerCapability: 10 } });
    const ex = ExecutorContractStore.of(s);
    const recs: RecoveryContract[] = [];
    for (const t of [1, 2, 3]) {
      const c = executing(s, contractInput({ target: t }));
      recs.push(ex.markExecutionAmbiguous(c.contract_id, c.state_version, 'AMBIGUOUS'));
      expect(s.holdsReservation(c.contract_id)).toBe(true);
      if (t < 3) expect(s.create(contractInput({ target: 10 + t })).state).toBe('PREPARING');
    }
    expect(errorOf(() => s.create(contractInput({ target: 99 }))).message).toContain('RECONCILIATION_LOCKOUT');
    const r = recs[0]!;
    s.resolveReconciliation(r.contract_id, h.authorities.resolution(r, 'FORWARD_NOT_APPLIED'));
    expect(s.create(contractInput({ target: 99 })).state).toBe('PREPARING');
    // its resolution started the cooldown of target 1
    expect(errorOf(() => s.create(contractInput({ target: 1 }))).message).toContain('TARGET_COOLDOWN');
  });

  it('a clock that went backwards is refused (fail closed)', async () => {
    const s = await adr015();
    s.create(contractInput({ target: 1 }));
    h.clock.now -= 1;
    expect(errorOf(() => s.create(contractInput({ target: 2 }))).message).toContain('CLOCK_REGRESSION');
  });

  it('an authentic rate row whose window state is malformed: open checks only its binding, the first decision and the integrity check refuse it', async () => {
    const s = await adr015();
    s.create(contractInput({ target: 1 }));
    s.close();
    // Only a holder of the key can write such a row (a writer bug, never an attacker): rebind the stored row
    // to a window state of an unknown version, under a valid MAC.
    const db = new Database(join(h.dir, 'contracts.sqlite'));
    const storeId = (db.prepare('SELECT store_id FROM store_meta').get() as { store_id: string }).store_id;
    const stored = JSON.parse((db.prepare('SELECT state FROM rate_windows').get() as { state: Buffer }).state.toString('utf8')) as {
      audit_sequence: number;
      windows: Record<string, unknown>;
    };
    const bytes = rateRowBytes(stored.audit_sequence, { ...stored.windows, version: 2 } as never);
    db.prepare('UPDATE rate_windows SET state = ?, mac = ?').run(
      Buffer.from(bytes),
      Buffer.from(rateRowMac(loadStoreKeys({ masterKey: h.masterKey }, 'test').recordMac, storeId, bytes)),
    );
    db.close();
    const reopened = await adr015();
    const before = auditCount(reopened);
    expect(errorOf(() => reopened.create(contractInput({ target: 2 })))).toMatchObject({
      name: 'RecordIntegrityError',
      code: 'RATE_STATE_MALFORMED',
    });
    expect(auditCount(reopened)).toBe(before);
    expect(reopened.verifyIntegrity()).toMatchObject({ ok: false, failure: { kind: 'RATE_STATE_MALFORMED' } });
  });

  it('a tampered rate window row fails closed at open', async () => {
    const s = await adr015();
    s.create(contractInput({ target: 1 }));
    s.close();
    const db = new Database(join(h.dir, 'contracts.sqlite'));
    db.prepare(
      'UPDATE rate_windows SET state = CAST(replace(CAST(state AS TEXT), \'"targetCooldowns":{}\', \'"targetCooldowns":{} \') AS BLOB)',
    ).run();
    db.close();
    await expect(adr015()).rejects.toMatchObject({ code: 'RATE_STATE_MAC' });
  });
});

function bytesOfStoreFiles(dir: string): Buffer {
  const parts = ['contracts.sqlite', 'contracts.sqlite-wal'].map((f) => join(dir, f)).filter((p) => existsSync(p));
  return Buffer.concat(parts.map((p) => readFileSync(p)));
}

const SENTINELS = [SENTINEL_INTENT, SENTINEL_SNAPSHOT, SENTINEL_IDENTITY];

describe('containment before consumption: precheckCreate and the consume step of create', () => {
  /** Everything a refused or read-only call must leave untouched: rows, audit, the persisted windows. */
  function snapshotOf(s: SqliteRecoveryContractStore): string {
    const db = new Database(join(h.dir, 'contracts.sqlite'), { readonly: true });
    try {
      const windows = db.prepare('SELECT hex(state) AS s, hex(mac) AS m FROM rate_windows').all();
      return JSON.stringify({
        contracts: s.list({ limit: 1000 }).map((c) => [c.contract_id, c.state_version]),
        audit: auditCount(s),
        windows,
      });
    } finally {
      db.close();
    }
  }

  it('precheckCreate refuses exactly what create refuses now (cooldown, outstanding PREPARED, duplicates) and writes nothing', async () => {
    const s = await adr015();
    // cooldown after a verified change, with the real 60 s default
    const c = executing(s, contractInput({ target: 1 }));
    ExecutorContractStore.of(s).markExecutionVerified(c.contract_id, c.state_version, {
      verifiedTargetFingerprint: hex(2),
      verifiedLifecycleLocator: 7,
    });
    const before = snapshotOf(s);
    const next = contractInput({ target: 1 });
    expect(errorOf(() => s.precheckCreate(next)).message).toContain('TARGET_COOLDOWN');
    expect(errorOf(() => s.create(next)).message).toContain('TARGET_COOLDOWN');
    expect(snapshotOf(s)).toBe(before);
    h.clock.now += 60_000;
    expect(s.precheckCreate(next)).toBeUndefined();
    expect(snapshotOf(s)).toBe(before); // an admitted precheck does not count toward any window either
    const admitted = s.create(next);
    // a second PREPARED on the same target
    const other = contractInput({ target: 1 });
    expect(errorOf(() => s.precheckCreate(other)).message).toContain('TARGET_OUTSTANDING_PREPARED');
    // duplicates, in create's order
    expect(errorOf(() => s.precheckCreate({ ...contractInput({ target: 3 }), provenance: admitted.provenance })).code).toBe(
      'DUPLICATE_AUTHORIZATION',
    );
    expect(errorOf(() => s.precheckCreate({ ...contractInput({ target: 3 }), operation_id: admitted.operation_id })).code).toBe(
      'DUPLICATE_OPERATION',
    );
    expect(errorOf(() => s.precheckCreate({ ...contractInput({ target: 3 }), contract_id: admitted.contract_id })).code).toBe(
      'DUPLICATE_CONTRACT',
    );
    expect(errorOf(() => s.precheckCreate({ ...contractInput({ target: 3 }), expires_at: h.clock.now })).code).toBe('CONTRACT_EXPIRED');
    expect(() => s.precheckCreate({ ...contractInput(), capability: 'nope' } as never)).toThrow(TypeError);
  });

  it('create calls consume only after every refusal it can make, inside its transaction, with the authorization id', async () => {
    const s = await adr015();
    const first = s.create(contractInput({ target: 1 }));
    const consumed: string[] = [];
    const consume = (id: string) => {
      consumed.push(id);
      return true;
    };
    // refused by containment or as a duplicate: consume never runs
    expect(errorOf(() => s.create(contractInput({ target: 1 }), { consume })).message).toContain('TARGET_OUTSTANDING_PREPARED');
    expect(errorOf(() => s.create({ ...contractInput({ target: 2 }), provenance: first.provenance }, { consume })).code).toBe(
      'DUPLICATE_AUTHORIZATION',
    );
    expect(consumed).toEqual([]);
    // admitted: consume runs once with the provenance's authorization id, and the contract is written
    const input = contractInput({ target: 2 });
    const created = s.create(input, { consume });
    expect(consumed).toEqual([input.provenance.authorization_id]);
    expect(s.load(created.contract_id).state).toBe('PREPARING');
  });

  it('a consume that returns false or throws rolls the creation back: no row, no audit, no window', async () => {
    const s = await adr015();
    const before = snapshotOf(s);
    expect(errorOf(() => s.create(contractInput({ target: 1 }), { consume: () => false })).code).toBe('AUTHORIZATION_CONSUMED');
    expect(snapshotOf(s)).toBe(before);
    class LedgerDown extends Error {}
    expect(() =>
      s.create(contractInput({ target: 1 }), {
        consume: () => {
          throw new LedgerDown('ledger');
        },
      }),
    ).toThrow(LedgerDown);
    expect(snapshotOf(s)).toBe(before);
    // the window was not used by either: the next admitted create succeeds on the same target
    expect(s.create(contractInput({ target: 1 }), { consume: () => true }).state).toBe('PREPARING');
    expect(() => s.create(contractInput({ target: 2 }), { consume: 'yes' } as never)).toThrow(TypeError);
    expect(s.verifyAuditChain()).toEqual({ ok: true });
  });
});

describe('protected artifacts, sentinels and retention', () => {
  it('artifacts round-trip only through the executor entry, and sentinels appear in no audit row, error or database byte', async () => {
    const s = await h.open();
    const ex = ExecutorContractStore.of(s);
    const c = rollingBack(s, contractInput({ target: 1 }));
    expect(ex.decryptProtectedArtifact(c.contract_id, 'intent')).toEqual({ alias_name: 'lan_hosts', description: SENTINEL_INTENT });
    expect(JSON.stringify(ex.decryptProtectedArtifact(c.contract_id, 'snapshot'))).toContain(SENTINEL_SNAPSHOT);
    expect(JSON.stringify(ex.decryptProtectedArtifact(c.contract_id, 'target-identity'))).toContain(SENTINEL_IDENTITY);
    const errors = [
      errorOf(() => s.create({ ...contractInput({ target: 2 }), intent: { [SENTINEL_INTENT]: 1.5 } })),
      errorOf(() =>
        s.create({
          ...contractInput({ target: 2 }),
          snapshot: { x: SENTINEL_SNAPSHOT, y: undefined as unknown as null, z: 1n as unknown as number },
        }),
      ),
      errorOf(() => s.create({ ...contractInput({ target: 2 }), operation_id: SENTINEL_INTENT.replace(/-/g, ' ') })),
    ];
    expect(errors.map((e) => e.code ?? e.name)).toEqual(['ENCODE_FAILED', 'ENCODE_FAILED', 'TypeError']);
    const audit = JSON.stringify(s.listAuditEvents({ limit: 10_000 }));
    const files = bytesOfStoreFiles(h.dir).toString('latin1');
    for (const sentinel of SENTINELS) {
      expect(audit).not.toContain(sentinel);
      expect(files).not.toContain(sentinel);
      for (const e of errors) expect(e.message).not.toContain(sentinel);
    }
    expect(errorOf(() => ex.decryptProtectedArtifact(c.contract_id, 'bogus' as 'intent')).name).toBe('TypeError');
  });

  it('purges artifacts of terminal contracts after the retention period: zeroed, deleted, gone from the files after compact; audit stays', async () => {
    const retentionMs = 1000;
    const s = await h.open({ retentionMs });
    const ex = ExecutorContractStore.of(s);
    const done = ex.markRollbackVerified(
      ...(() => {
        const c = rollingBack(s, contractInput({ target: 1 }));
        return [c.contract_id, c.state_version, { verifiedTargetFingerprint: hex(0xf1), verifiedLifecycleLocator: 7 }] as const;
      })(),
    );
    const live = executing(s, contractInput({ target: 2 }));
    const stuck = (() => {
      const c = rollingBack(s, contractInput({ target: 3 }));
      return ex.markRollbackFailed(c.contract_id, c.state_version, 'VERIFIED_FAILURE');
    })();
    const envelope = (() => {
      const db = new Database(join(h.dir, 'contracts.sqlite'), { readonly: true });
      try {
        return (
          db.prepare("SELECT envelope FROM protected_artifacts WHERE contract_id = ? AND purpose = 'snapshot'").get(done.contract_id) as {
            envelope: Buffer;
          }
        ).envelope;
      } finally {
        db.close();
      }
    })();
    const ciphertextProbe = envelope.subarray(13, 45).toString('latin1');
    s.compact();
    expect(bytesOfStoreFiles(h.dir).toString('latin1')).toContain(ciphertextProbe);

    // The exported rule (what `admin status` counts) says exactly what purge takes.
    const purgeable = (id: string): boolean => isPurgeable(s.load(id), h.clock.now, retentionMs);
    expect(purgeable(done.contract_id)).toBe(false);
    expect(s.purgeExpiredArtifacts()).toEqual([]);
    h.clock.now += retentionMs;
    expect([done.contract_id, live.contract_id, stuck.contract_id].map(purgeable)).toEqual([true, false, false]);
    expect(s.purgeExpiredArtifacts()).toEqual([done.contract_id]);
    expect(purgeable(done.contract_id)).toBe(false);
    expect(errorOf(() => ex.decryptProtectedArtifact(done.contract_id, 'snapshot')).code).toBe('PURGED');
    expect(ex.decryptProtectedArtifact(live.contract_id, 'intent')).toMatchObject({ description: SENTINEL_INTENT });
    expect(JSON.stringify(ex.decryptProtectedArtifact(stuck.contract_id, 'snapshot'))).toContain(SENTINEL_SNAPSHOT);
    const events = s.listAuditEvents({ contractId: done.contract_id });
    expect(events).toHaveLength(8);
    expect(events.at(-1)).toMatchObject({ kind: 'artifact-purge', to_state: 'ROLLED_BACK' });
    expect(s.verifyAuditChain()).toEqual({ ok: true });
    s.compact();
    const after = bytesOfStoreFiles(h.dir).toString('latin1');
    expect(after).not.toContain(ciphertextProbe);
    for (const sentinel of SENTINELS) expect(after).not.toContain(sentinel);

    // the ROLLBACK_FAILED snapshot is kept until its reservation is released, and the retention period
    // counts from the release, not from terminal_at (which is already older than retentionMs here)
    h.clock.now += retentionMs;
    expect(s.purgeExpiredArtifacts()).toEqual([]);
    s.releaseRollbackFailedReservation(stuck.contract_id, h.authorities.release(stuck));
    expect(s.purgeExpiredArtifacts()).toEqual([]);
    h.clock.now += retentionMs - 1;
    expect(purgeable(stuck.contract_id)).toBe(false);
    expect(s.purgeExpiredArtifacts()).toEqual([]);
    h.clock.now += 1;
    expect(purgeable(stuck.contract_id)).toBe(true);
    expect(s.purgeExpiredArtifacts()).toEqual([stuck.contract_id]);
  });
});
