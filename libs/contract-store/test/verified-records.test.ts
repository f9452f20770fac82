// What a write path reuses of its own work (docs/DESIGN.md §8): a contract row holding exactly the bytes and MAC
// this process wrote is that record (not authenticated, parsed and validated again), and an anchor file holding
// exactly what this process wrote is that mark — while anything changed underneath is still verified in full.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileAntiRollbackAnchor } from '../src/index.js';
import type { AnchorRecord } from '../src/index.js';
import { contractInput, errorOf, hex, makeHarness, preparedConfirmed } from './helpers.js';
import type { Harness } from './helpers.js';

let h: Harness;
beforeEach(() => {
  h = makeHarness();
});
afterEach(() => h.cleanup());

describe('contract rows this process wrote', () => {
  it('a load of the row a transition just wrote returns that very record', async () => {
    const s = await h.open();
    const c = s.create(contractInput({ target: 1 }));
    expect(s.load(c.contract_id)).toBe(c);
    const p = s.markPrepared(c.contract_id, c.state_version);
    expect(s.load(p.contract_id)).toBe(p);
    const k = s.confirm(p.contract_id, { accept: true });
    expect(s.load(k.contract_id)).toBe(k);
    // Loaded from another store object, the same row is parsed anew: nothing is shared between opens.
    const other = await h.open({ verifyOnOpen: false });
    expect(other.load(k.contract_id)).not.toBe(k);
    expect(other.load(k.contract_id)).toEqual(k);
  });

  it('a record byte changed underneath the open store is refused (RECORD_MAC)', async () => {
    const s = await h.open();
    const k = preparedConfirmed(s, contractInput({ target: 1 }));
    h.raw((db) => {
      const row = db.prepare('SELECT record FROM contracts WHERE contract_id = ?').get(k.contract_id) as { record: Buffer };
      const flipped = Buffer.from(row.record);
      flipped[10] = (flipped[10] ?? 0) ^ 0x01;
      db.prepare('UPDATE contracts SET record = ? WHERE contract_id = ?').run(flipped, k.contract_id);
    });
    expect(errorOf(() => s.load(k.contract_id)).code).toBe('RECORD_MAC');
  });

  it('an index column changed underneath, the record untouched, is still refused (INDEX_MISMATCH)', async () => {
    const s = await h.open();
    const k = preparedConfirmed(s, contractInput({ target: 1 }));
    h.raw((db) => db.prepare("UPDATE contracts SET state = 'VERIFIED' WHERE contract_id = ?").run(k.contract_id));
    expect(errorOf(() => s.load(k.contract_id)).code).toBe('INDEX_MISMATCH');
  });

  it('a row put back to an earlier version (its own valid MAC) is read as that version, not as the later one', async () => {
    const s = await h.open();
    const c = s.create(contractInput({ target: 1 }));
    const p = s.markPrepared(c.contract_id, c.state_version);
    const old = h.raw((db) => db.prepare('SELECT * FROM contracts WHERE contract_id = ?').get(p.contract_id) as Record<string, unknown>);
    const k = s.confirm(p.contract_id, { accept: true });
    h.raw((db) =>
      db
        .prepare('UPDATE contracts SET state = ?, state_version = ?, record = ?, mac = ? WHERE contract_id = ?')
        .run(old['state'], old['state_version'], old['record'], old['mac'], p.contract_id),
    );
    const loaded = s.load(p.contract_id);
    expect(loaded).not.toBe(k);
    expect(loaded).toEqual(p);
  });
});

describe('the anchor file this process wrote', () => {
  const key = new Uint8Array(32).fill(7);
  const marks: readonly [string, AnchorRecord][] = [
    ['v1', { storeId: 'store-1', sequence: 3, headMac: hex(0xa1), acceptedRestoreAt: null }],
    ['v2', { storeId: 'store-1', sequence: 4, headMac: hex(0xa2), acceptedRestoreAt: 1_800_000_000_000 }],
    ['v3', { storeId: 'store-1', sequence: 5, headMac: hex(0xa3), acceptedRestoreAt: null, keyEpoch: 2 }],
    ['v3 accepted', { storeId: 'store-1', sequence: 6, headMac: hex(0xa4), acceptedRestoreAt: 1_800_000_000_001, keyEpoch: 3 }],
  ];
  for (const [label, mark] of marks) {
    it(`${label}: reading back what it wrote gives what a fresh reader of the file gives`, () => {
      const path = join(h.anchorDir, `${label.replace(' ', '-')}.json`);
      const writer = new FileAntiRollbackAnchor({ path, macKey: key });
      writer.write(mark);
      expect(writer.read()).toEqual(new FileAntiRollbackAnchor({ path, macKey: key }).read());
    });
  }

  it('a file another writer replaced is read in full, and a tampered one is refused', () => {
    const path = join(h.anchorDir, 'shared.json');
    const mine = new FileAntiRollbackAnchor({ path, macKey: key });
    mine.write(marks[0]![1]);
    const later: AnchorRecord = { storeId: 'store-1', sequence: 9, headMac: hex(0xb9), acceptedRestoreAt: null };
    new FileAntiRollbackAnchor({ path, macKey: key }).write(later);
    expect(mine.read()).toEqual(later);
    mine.write(marks[0]![1]);
    writeFileSync(path, readFileSync(path, 'utf8').replace('"sequence":3', '"sequence":8'), { mode: 0o600 });
    expect(errorOf(() => mine.read()).code).toBe('ANCHOR_MAC');
  });
});
