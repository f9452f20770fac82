// walkAuditChain reads the chain a page at a time; every result must be the row-by-row walk's, whatever the page size.
import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditMacScratch, auditRowMac, macEqualsAt, verifyAuditRows } from '../src/audit/audit-chain.js';
import type { AuditChainResult } from '../src/audit/audit-chain.js';
import { auditMacAt, auditRowsAfter } from '../src/audit/store-audit-rows.js';
import { stateOf } from '../src/store/store-face.js';
import type { StoreState } from '../src/store/store-state.js';
import { walkAuditChain } from '../src/audit/walk-audit-chain.js';
import { contractInput, makeHarness, preparedConfirmed } from './helpers.js';
import type { Harness } from './helpers.js';

let h: Harness;
beforeEach(() => {
  h = makeHarness();
});
afterEach(() => h.cleanup());

type Seen = [number, string, string][];

function walked(s: StoreState, after: number, walk: 'rows' | number): { result: AuditChainResult; seen: Seen } {
  const seen: Seen = [];
  const onVerified = (sequence: number, contractId: string, body: Uint8Array) =>
    seen.push([sequence, contractId, Buffer.from(body).toString('hex')]);
  const start = auditMacAt(s, after) as Uint8Array;
  const result = s.db.transaction(() =>
    walk === 'rows'
      ? verifyAuditRows(s.keys.auditChain, s.storeId, auditRowsAfter(s, after), after, start, onVerified)
      : walkAuditChain(s, after, start, onVerified, walk),
  )();
  return { result, seen };
}

const PAGE_SIZES = [1, 2, 5, 13, 14, 512];

/** 13 audit rows: four contracts created, prepared and confirmed, and a refusal naming no contract. */
async function thirteenRows(): Promise<StoreState> {
  const store = await h.open();
  for (let target = 1; target <= 4; target += 1) preparedConfirmed(store, contractInput({ target }));
  store.recordRefusal({ gate: 'FRESHNESS', refusalClass: 'STALE', operationId: 'op-x' });
  return stateOf(store);
}

function expectSameAsRowWalk(s: StoreState, after = 0): AuditChainResult {
  const reference = walked(s, after, 'rows');
  for (const rows of PAGE_SIZES) expect(walked(s, after, rows), `${rows} rows a page`).toEqual(reference);
  return reference.result;
}

describe('walkAuditChain', () => {
  it('verifies an intact chain with every page size, seeing every row once, in order, as the row walk does', async () => {
    const s = await thirteenRows();
    const result = expectSameAsRowWalk(s);
    expect(result).toMatchObject({ ok: true, headSequence: 13 });
    expect(walked(s, 0, 5).seen.map(([sequence]) => sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    expect(walked(s, 0, 5).seen.at(-1)?.[1]).toBe('');
    // from a mark in the middle (the anchor check), and from the head (nothing to walk)
    expect(expectSameAsRowWalk(s, 6)).toMatchObject({ ok: true, headSequence: 13 });
    expect(expectSameAsRowWalk(s, 13)).toMatchObject({ ok: true, headSequence: 13 });
  });

  const tamperings: [string, number, (db: Database.Database) => void][] = [
    [
      'a flipped body byte',
      7,
      (db) => {
        const body = Buffer.from(db.prepare('SELECT body FROM audit_events WHERE sequence = 7').pluck().get() as Buffer);
        body[40] = (body[40] as number) ^ 0x01;
        db.prepare('UPDATE audit_events SET body = ? WHERE sequence = 7').run(body);
      },
    ],
    ['a MAC one byte short', 7, (db) => db.prepare('UPDATE audit_events SET mac = substr(mac, 1, 31) WHERE sequence = 7').run()],
    ['a deleted row', 7, (db) => db.prepare('DELETE FROM audit_events WHERE sequence = 7').run()],
    [
      'two bodies swapped',
      5,
      (db) => {
        const [a, b] = db.prepare('SELECT body FROM audit_events WHERE sequence IN (5, 6) ORDER BY sequence').pluck().all() as Buffer[];
        db.prepare('UPDATE audit_events SET body = ? WHERE sequence = 6').run(a);
        db.prepare('UPDATE audit_events SET body = ? WHERE sequence = 5').run(b);
      },
    ],
    [
      'a contract id changed to a multi-byte one',
      9,
      (db) => db.prepare("UPDATE audit_events SET contract_id = 'ctr-é' WHERE sequence = 9").run(),
    ],
    [
      'a row added past a gap after the head',
      14,
      (db) => db.prepare('INSERT INTO audit_events SELECT 20, contract_id, body, mac FROM audit_events WHERE sequence = 13').run(),
    ],
    [
      'the last row replaced by a copy of the first',
      13,
      (db) => {
        db.prepare('DELETE FROM audit_events WHERE sequence = 13').run();
        db.prepare('INSERT INTO audit_events SELECT 13, contract_id, body, mac FROM audit_events WHERE sequence = 1').run();
      },
    ],
  ];
  for (const [what, broken, tamper] of tamperings) {
    it(`reports ${what} at the sequence the row walk names, having seen the same rows`, async () => {
      const s = await thirteenRows();
      h.raw((db) => {
        db.pragma('foreign_keys = OFF');
        tamper(db);
      });
      expect(expectSameAsRowWalk(s)).toEqual({ ok: false, firstBrokenSequence: broken });
    });
  }
});

describe('AuditMacScratch', () => {
  // The page walk MACs a row from its bytes in place; if its framing drifted from the row MAC's, every page would
  // fall back to the row walk and still give the right verdict — only slower. So the two are compared directly.
  it('frames a row held as bytes exactly as auditRowMac frames it from its fields', () => {
    const key = new Uint8Array(32).fill(7);
    const previous = new Uint8Array(32).fill(9);
    for (const [sequence, contractId, body] of [
      [1, '', Buffer.from('{}')],
      [2 ** 32 + 5, 'c-0123', Buffer.from('{"a":1}')],
      [Number.MAX_SAFE_INTEGER, 'ctr-é€😀', Buffer.alloc(5000, 0x61)],
    ] as const) {
      const scratch = new AuditMacScratch(key, 'store-1');
      const id = Buffer.from(contractId, 'utf8');
      const bytes = Buffer.concat([Buffer.alloc(3), id, body, Buffer.alloc(2)]);
      const expected = auditRowMac(key, 'store-1', sequence, contractId, previous, body);
      expect(scratch.rowMac(sequence, contractId, previous, body)).toEqual(expected);
      expect(scratch.rangeMac(sequence, bytes, 3, 3 + id.length, 3 + id.length + body.length, previous)).toEqual(expected);
      expect(macEqualsAt(expected, Buffer.concat([Buffer.alloc(4), expected]), 4)).toBe(true);
      expect(macEqualsAt(expected, Buffer.concat([Buffer.alloc(4), expected]), 3)).toBe(false);
    }
  });
});
