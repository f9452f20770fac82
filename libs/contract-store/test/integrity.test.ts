import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExecutorContractStore } from '../src/executor-entry.js';
import { SqliteRecoveryContractStore } from '../src/index.js';
import type { AnchorRecord, AntiRollbackAnchor } from '../src/index.js';
import { contractInput, errorOf, executing, makeHarness, preparedConfirmed } from './helpers.js';
import type { Harness } from './helpers.js';

let h: Harness;
beforeEach(() => {
  h = makeHarness();
});
afterEach(() => h.cleanup());

const dbPath = () => h.dbPath;

function flipByte(buf: Buffer, at = Math.floor(buf.length / 2)): Buffer {
  const copy = Buffer.from(buf);
  copy[at] = (copy[at] ?? 0) ^ 0x01;
  return copy;
}

function fileHash(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** The bytes that hold state: the database (taken with every store closed, so no WAL) and the anchor. */
function stateHashes(): { db: string; wal: boolean; anchor: string } {
  return { db: fileHash(dbPath()), wal: existsSync(`${dbPath()}-wal`), anchor: fileHash(h.anchorFile) };
}

async function seeded(): Promise<{ a: string; b: string }> {
  const s = await h.open();
  const a = preparedConfirmed(s, contractInput({ target: 1 })).contract_id;
  const b = preparedConfirmed(s, contractInput({ target: 2 })).contract_id;
  s.close();
  return { a, b };
}

describe('tampering fails closed with a typed error and no state change', () => {
  it('a flipped byte in a contract row: refused at open, and at load when not verified at open', async () => {
    const { a } = await seeded();
    h.raw((db) => {
      const row = db.prepare('SELECT record FROM contracts WHERE contract_id = ?').get(a) as { record: Buffer };
      db.prepare('UPDATE contracts SET record = ? WHERE contract_id = ?').run(flipByte(row.record), a);
    });
    const anchorBefore = fileHash(h.anchorFile);
    const e = await h.open().catch((error: unknown) => error as { name: string; code: string });
    expect(e).toMatchObject({ name: 'RecordIntegrityError', code: 'RECORD_MAC' });
    const lazy = await h.open({ verifyOnOpen: false });
    expect(errorOf(() => lazy.load(a)).code).toBe('RECORD_MAC');
    expect(errorOf(() => ExecutorContractStore.of(lazy).beginExecution(a, 3)).code).toBe('RECORD_MAC');
    expect(lazy.listAuditEvents({ limit: 1000 })).toHaveLength(6);
    expect(fileHash(h.anchorFile)).toBe(anchorBefore);
  });

  it('a changed index column (state) is refused even with an intact record MAC', async () => {
    const { a } = await seeded();
    h.raw((db) => db.prepare("UPDATE contracts SET state = 'VERIFIED' WHERE contract_id = ?").run(a));
    const lazy = await h.open({ verifyOnOpen: false });
    expect(errorOf(() => lazy.load(a)).code).toBe('INDEX_MISMATCH');
  });

  it("two contracts' rows swapped: refused at open, at load and at EXECUTING, and nothing changes", async () => {
    const { a, b } = await seeded();
    h.raw((db) => {
      const ra = db.prepare('SELECT record, mac FROM contracts WHERE contract_id = ?').get(a) as { record: Buffer; mac: Buffer };
      const rb = db.prepare('SELECT record, mac FROM contracts WHERE contract_id = ?').get(b) as { record: Buffer; mac: Buffer };
      db.prepare('UPDATE contracts SET record = ?, mac = ? WHERE contract_id = ?').run(rb.record, rb.mac, a);
      db.prepare('UPDATE contracts SET record = ?, mac = ? WHERE contract_id = ?').run(ra.record, ra.mac, b);
    });
    const before = stateHashes();
    await expect(h.open()).rejects.toMatchObject({ name: 'RecordIntegrityError', code: 'RECORD_MAC' });
    const lazy = await h.open({ verifyOnOpen: false });
    expect(errorOf(() => lazy.load(a)).code).toBe('RECORD_MAC');
    expect(errorOf(() => lazy.load(b)).code).toBe('RECORD_MAC');
    expect(errorOf(() => ExecutorContractStore.of(lazy).beginExecution(a, 3)).code).toBe('RECORD_MAC');
    lazy.close();
    expect(stateHashes()).toEqual(before);
  });

  it('a flipped byte in an audit row: verifyAuditChain and listAuditEvents name the sequence; open refuses; nothing changes', async () => {
    const s = await h.open();
    preparedConfirmed(s, contractInput({ target: 1 }));
    h.raw((db) => {
      const row = db.prepare('SELECT body FROM audit_events WHERE sequence = 2').get() as { body: Buffer };
      db.prepare('UPDATE audit_events SET body = ? WHERE sequence = 2').run(flipByte(row.body));
    });
    expect(s.verifyAuditChain()).toEqual({ ok: false, firstBrokenSequence: 2 });
    // listing authenticates each row it returns: a typed error, never a parse error or a forged event
    expect(errorOf(() => s.listAuditEvents({ limit: 1000 }))).toMatchObject({ name: 'AuditChainError', code: 'AUDIT_CHAIN_BROKEN' });
    expect(s.listAuditEvents({ afterSequence: 2 }).map((e) => e.sequence)).toEqual([3]);
    s.close();
    const before = stateHashes();
    await expect(h.open()).rejects.toMatchObject({ name: 'AuditChainError', code: 'AUDIT_CHAIN_BROKEN', firstBrokenSequence: 2 });
    expect(stateHashes()).toEqual(before);
  });

  it('an audit body replaced by non-JSON bytes lists as a typed AuditChainError, not a SyntaxError', async () => {
    const s = await h.open();
    preparedConfirmed(s, contractInput({ target: 1 }));
    h.raw((db) => db.prepare('UPDATE audit_events SET body = ? WHERE sequence = 1').run(Buffer.from('{not json')));
    const e = errorOf(() => s.listAuditEvents());
    expect(e).toMatchObject({ name: 'AuditChainError', code: 'AUDIT_CHAIN_BROKEN' });
    expect(e.message).not.toContain('not json');
  });

  it('a deleted audit row breaks the chain at its sequence (and the row after it no longer lists)', async () => {
    const s = await h.open();
    preparedConfirmed(s, contractInput({ target: 1 }));
    h.raw((db) => db.prepare('DELETE FROM audit_events WHERE sequence = 2').run());
    expect(s.verifyAuditChain()).toEqual({ ok: false, firstBrokenSequence: 2 });
    expect(errorOf(() => s.listAuditEvents({ afterSequence: 2 }))).toMatchObject({ name: 'AuditChainError' });
  });

  it('a flipped byte in a protected artifact, or an artifact moved between contracts: refused at open and at decrypt; nothing changes', async () => {
    const { a, b } = await seeded();
    h.raw((db) => {
      const row = db.prepare("SELECT envelope FROM protected_artifacts WHERE contract_id = ? AND purpose = 'intent'").get(a) as {
        envelope: Buffer;
      };
      db.prepare("UPDATE protected_artifacts SET envelope = ? WHERE contract_id = ? AND purpose = 'intent'").run(flipByte(row.envelope), a);
      const snap = db.prepare("SELECT envelope FROM protected_artifacts WHERE contract_id = ? AND purpose = 'snapshot'").get(a) as {
        envelope: Buffer;
      };
      db.prepare("UPDATE protected_artifacts SET envelope = ? WHERE contract_id = ? AND purpose = 'snapshot'").run(snap.envelope, b);
    });
    const before = stateHashes();
    // open checks every artifact against its record (fails closed, naming the table and the contract)...
    const refused = await h.open().then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toMatchObject({ name: 'RecordIntegrityError', code: 'ARTIFACT_DIGEST', table: 'protected_artifacts' });
    expect([a, b]).toContain((refused as { contractId: string }).contractId);
    // ...and without open-time verification, the decrypt path refuses them one by one
    const s = await h.open({ verifyOnOpen: false });
    const ex = ExecutorContractStore.of(s);
    expect(errorOf(() => ex.decryptProtectedArtifact(a, 'intent')).code).toBe('ARTIFACT_DIGEST');
    expect(errorOf(() => ex.decryptProtectedArtifact(b, 'snapshot')).code).toBe('ARTIFACT_DIGEST');
    expect(ex.decryptProtectedArtifact(a, 'snapshot')).toMatchObject({ name: 'lan_hosts' });
    s.close();
    expect(stateHashes()).toEqual(before);
  });

  it('a tampered target reservation row: refused at open and at EXECUTING for that target; nothing changes', async () => {
    const s = await h.open();
    const holder = executing(s, contractInput({ target: 1 }));
    const waiting = preparedConfirmed(s, contractInput({ target: 1 }));
    s.close();
    h.raw((db) => db.prepare('UPDATE target_reservations SET acquired_at = acquired_at - 1 WHERE contract_id = ?').run(holder.contract_id));
    const before = stateHashes();
    await expect(h.open()).rejects.toMatchObject({ name: 'RecordIntegrityError', code: 'RESERVATION_MAC' });
    const lazy = await h.open({ verifyOnOpen: false });
    expect(errorOf(() => ExecutorContractStore.of(lazy).beginExecution(waiting.contract_id, waiting.state_version)).code).toBe(
      'RESERVATION_MAC',
    );
    expect(lazy.load(waiting.contract_id).state).toBe('PREPARED');
    lazy.close();
    expect(stateHashes()).toEqual(before);
  });

  it('a flipped byte in the anchor file: refused at open; nothing changes', async () => {
    await seeded();
    const text = readFileSync(h.anchorFile, 'utf8');
    const at = text.indexOf('"head_mac":"') + 14;
    writeFileSync(h.anchorFile, text.slice(0, at) + (text[at] === '0' ? '1' : '0') + text.slice(at + 1));
    const before = stateHashes();
    await expect(h.open()).rejects.toMatchObject({ name: 'AnchorError', code: 'ANCHOR_MAC' });
    expect(stateHashes()).toEqual(before);
    writeFileSync(h.anchorFile, '{"v":1');
    const truncated = stateHashes();
    await expect(h.open()).rejects.toMatchObject({ name: 'AnchorError', code: 'ANCHOR_CORRUPT' });
    expect(stateHashes()).toEqual(truncated);
  });

  it('the wrong master key fails closed at open', async () => {
    await seeded();
    const wrong = new Uint8Array(32).fill(7);
    await expect(SqliteRecoveryContractStore.open(h.options({ masterKey: wrong }))).rejects.toMatchObject({
      name: 'RecordIntegrityError',
      code: 'META_MAC',
    });
  });
});

function memoryAnchor(initial: AnchorRecord | null = null): AntiRollbackAnchor & { value: AnchorRecord | null } {
  return {
    value: initial,
    read() {
      return this.value;
    },
    write(record) {
      this.value = record;
    },
  };
}

describe('anti-rollback anchor', () => {
  it('an older database copy restored is refused (BEHIND), at open', async () => {
    const s = await h.open();
    preparedConfirmed(s, contractInput({ target: 1 }));
    s.close();
    copyFileSync(dbPath(), join(h.anchorDir, 'old.sqlite'));
    const t = await h.open();
    preparedConfirmed(t, contractInput({ target: 2 }));
    t.close();
    copyFileSync(join(h.anchorDir, 'old.sqlite'), dbPath());
    const before = fileHash(dbPath());
    await expect(h.open()).rejects.toMatchObject({ name: 'StoreRollbackError', code: 'BEHIND', anchorSequence: 6, storeSequence: 3 });
    expect(fileHash(dbPath())).toBe(before);
  });

  it('a restored copy that then diverged is refused (DIVERGED)', async () => {
    const s = await h.open();
    preparedConfirmed(s, contractInput({ target: 1 }));
    s.close();
    copyFileSync(dbPath(), join(h.anchorDir, 'old.sqlite'));
    copyFileSync(h.anchorFile, join(h.anchorDir, 'old-anchor.json'));
    const t = await h.open();
    t.create(contractInput({ target: 2 }));
    t.close();
    copyFileSync(h.anchorFile, join(h.anchorDir, 'true-anchor.json'));
    // An attacker restores the old pair, lets the server write one different commit, then the true anchor returns.
    copyFileSync(join(h.anchorDir, 'old.sqlite'), dbPath());
    copyFileSync(join(h.anchorDir, 'old-anchor.json'), h.anchorFile);
    const u = await h.open();
    u.create(contractInput({ target: 3 }));
    u.close();
    copyFileSync(join(h.anchorDir, 'true-anchor.json'), h.anchorFile);
    await expect(h.open()).rejects.toMatchObject({ name: 'StoreRollbackError', code: 'DIVERGED' });
  });

  it('a database one commit ahead of the anchor (crash before the anchor write) is accepted and the anchor advanced', async () => {
    const s = await h.open();
    const c = preparedConfirmed(s, contractInput({ target: 1 }));
    s.close();
    copyFileSync(h.anchorFile, join(h.anchorDir, 'saved.json'));
    const t = await h.open();
    ExecutorContractStore.of(t).beginExecution(c.contract_id, c.state_version);
    t.close();
    copyFileSync(join(h.anchorDir, 'saved.json'), h.anchorFile);
    expect(JSON.parse(readFileSync(h.anchorFile, 'utf8')).sequence).toBe(3);
    const u = await h.open();
    expect(JSON.parse(readFileSync(h.anchorFile, 'utf8')).sequence).toBe(4);
    expect(u.load(c.contract_id).state).toBe('EXECUTING');
  });

  it('a missing anchor next to a store with history, or a missing store next to an anchor, is refused', async () => {
    await seeded();
    copyFileSync(h.anchorFile, join(h.anchorDir, 'saved.json'));
    writeFileSync(h.anchorFile, '');
    const { unlinkSync } = await import('node:fs');
    unlinkSync(h.anchorFile);
    await expect(h.open()).rejects.toMatchObject({ name: 'StoreRollbackError', code: 'ANCHOR_MISSING' });
    copyFileSync(join(h.anchorDir, 'saved.json'), h.anchorFile);
    for (const suffix of ['', '-wal', '-shm']) {
      try {
        unlinkSync(dbPath() + suffix);
      } catch {
        // may not exist
      }
    }
    await expect(h.open()).rejects.toMatchObject({ name: 'StoreRollbackError', code: 'STORE_MISSING' });
  });

  it("another store's anchor is refused (STORE_MISMATCH)", async () => {
    await seeded();
    const other = makeHarness();
    try {
      const o = await SqliteRecoveryContractStore.open({ ...other.options(), masterKey: h.masterKey });
      o.close();
      copyFileSync(other.anchorFile, h.anchorFile);
      await expect(h.open()).rejects.toMatchObject({ name: 'StoreRollbackError', code: 'STORE_MISMATCH' });
    } finally {
      other.cleanup();
    }
  });

  it('before EXECUTING the anchor is checked again: a rollback detected at runtime refuses with no state change', async () => {
    const anchor = memoryAnchor();
    const s = await h.open({ anchor });
    const c = preparedConfirmed(s, contractInput({ target: 1 }));
    // The external witness has seen a later commit than this database holds (the file was swapped underneath).
    anchor.value = { ...anchor.value!, sequence: anchor.value!.sequence + 3 };
    const ex = ExecutorContractStore.of(s);
    expect(errorOf(() => ex.beginExecution(c.contract_id, c.state_version))).toMatchObject({ name: 'StoreRollbackError', code: 'BEHIND' });
    expect(s.load(c.contract_id).state).toBe('PREPARED');
    expect(s.holdsReservation(c.contract_id)).toBe(false);
  });

  it('an anchor file with an unsafe mode is refused', async () => {
    await seeded();
    const { chmodSync } = await import('node:fs');
    chmodSync(h.anchorFile, 0o644);
    await expect(h.open()).rejects.toMatchObject({ name: 'AnchorError', code: 'ANCHOR_UNSAFE_FILE' });
  });

  it('a rollback of terminal history is caught at open, not only before EXECUTING', async () => {
    const s = await h.open();
    const c = executing(s, contractInput({ target: 1 }));
    s.close();
    copyFileSync(dbPath(), join(h.anchorDir, 'old.sqlite'));
    const t = await h.open();
    ExecutorContractStore.of(t).markExecutionFailed(c.contract_id, c.state_version, 'PROVEN_NONE');
    t.close();
    copyFileSync(join(h.anchorDir, 'old.sqlite'), dbPath());
    await expect(h.open()).rejects.toMatchObject({ name: 'StoreRollbackError', code: 'BEHIND' });
  });
  it('restoring a backup needs the explicit operator re-anchor step (refused while an anchor exists)', async () => {
    const s = await h.open();
    const c = preparedConfirmed(s, contractInput({ target: 1 }));
    s.close();
    copyFileSync(dbPath(), join(h.anchorDir, 'backup.sqlite'));
    const t = await h.open();
    const e = ExecutorContractStore.of(t).beginExecution(c.contract_id, c.state_version);
    t.close();
    copyFileSync(join(h.anchorDir, 'backup.sqlite'), dbPath());
    await expect(h.open()).rejects.toMatchObject({ code: 'BEHIND' });
    await expect(SqliteRecoveryContractStore.reanchorRestoredStore(h.options())).rejects.toMatchObject({ code: 'ANCHOR_PRESENT' });
    const { renameSync } = await import('node:fs');
    renameSync(h.anchorFile, join(h.anchorDir, 'anchor.before-restore.json'));
    const r = await SqliteRecoveryContractStore.reanchorRestoredStore(h.options());
    // The restored copy still shows PREPARED, but it was executed after the backup: it must never start again.
    const restored = r.load(e.contract_id);
    expect(restored.state).toBe('EXPIRED');
    expect(restored.last_outcome_class).toBe('RESTORED_FROM_BACKUP');
    expect(JSON.parse(readFileSync(h.anchorFile, 'utf8')).sequence).toBe(4);
    r.close();
    expect((await h.open()).load(c.contract_id).state).toBe('EXPIRED');
  });

  it('refuses a master key file or a file anchor inside the store directory', async () => {
    await expect(SqliteRecoveryContractStore.open(h.options({ anchor: { file: join(h.dir, 'anchor.json') } }))).rejects.toMatchObject({
      code: 'ANCHOR_IN_STORE_DIRECTORY',
    });
    await expect(
      SqliteRecoveryContractStore.open({ ...h.options(), masterKey: undefined, masterKeyFile: join(h.dir, 'master.key') }),
    ).rejects.toMatchObject({ code: 'KEY_IN_STORE_DIRECTORY' });
  });
});
