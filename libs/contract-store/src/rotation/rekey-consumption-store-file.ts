import Database from 'better-sqlite3';
import { bytesToHex } from '@pfsense-mcp/canonical';
import { ConsumptionIntegrityError, KeyEpochMismatchError } from '../store/contract-store-error.js';
import { readKeyEpoch, writeKeyEpoch } from '../store/key-epoch.js';
import type { EpochKeys } from './rekey-contract-store-file.js';
import { MacDomain, macMatches, rowMac } from '../integrity/row-mac.js';
import { consumptionMetaMac } from '../consumption/sqlite-consumption-store.js';

/** What a re-key of one consumption-store file did (counts only) and its new chain head. */
export interface ConsumptionStoreRekey {
  readonly storeId: string;
  readonly headSequence: number;
  /** The chain head MAC under the new key (64 hex; genesis for an empty chain). */
  readonly headMac: string;
  readonly rowsRemaced: number;
}

/**
 * Re-keys a CLOSED copy of the consumption store (README "Rotating the master key"): one transaction
 * authenticates the metadata and the whole chain under the old consumption key and re-links it under the
 * new one from a new genesis; the metadata MAC then binds the new head and the new epoch.
 */
export function rekeyConsumptionStoreFile(path: string, from: EpochKeys, to: EpochKeys): ConsumptionStoreRekey {
  if (typeof path !== 'string' || path.length === 0) throw new TypeError('rekeyConsumptionStoreFile: "path" must be a non-empty path');
  if (to.epoch <= from.epoch) throw new TypeError('rekeyConsumptionStoreFile: the new epoch must follow the old one');
  const db = new Database(path, { fileMustExist: true });
  try {
    db.pragma('journal_mode = DELETE');
    db.pragma('synchronous = FULL');
    db.defaultSafeIntegers(false);
    const result = db
      .transaction((): ConsumptionStoreRekey => {
        const epoch = readKeyEpoch(db);
        if (epoch !== from.epoch) throw new KeyEpochMismatchError('the rotation journal', epoch, from.epoch);
        const meta = db.prepare('SELECT store_id, head_sequence, head_mac, mac FROM consumption_meta WHERE id = 1').get() as
          { store_id: string; head_sequence: number; head_mac: Buffer; mac: Buffer } | undefined;
        if (meta === undefined) throw new ConsumptionIntegrityError('META_MISSING', 'consumption store metadata is missing');
        const storeId = meta.store_id;
        if (!macMatches(consumptionMetaMac(from.keys.consumption, storeId, meta.head_sequence, meta.head_mac, from.epoch), meta.mac)) {
          throw new ConsumptionIntegrityError('META_MAC', 'consumption store metadata failed authentication under the old key');
        }
        const rows = db
          .prepare('SELECT authorization_id, sequence, consumed_at, mac FROM consumed_authorizations ORDER BY sequence')
          .all() as {
          authorization_id: string;
          sequence: number;
          consumed_at: number;
          mac: Buffer;
        }[];
        const setRow = db.prepare('UPDATE consumed_authorizations SET mac = ? WHERE sequence = ?');
        const link = (key: Uint8Array, row: (typeof rows)[number], previous: Uint8Array): Uint8Array =>
          rowMac(key, MacDomain.CONSUMPTION_ROW, [storeId, String(row.sequence), row.authorization_id, String(row.consumed_at), previous]);
        let oldPrevious: Uint8Array = rowMac(from.keys.consumption, MacDomain.CONSUMPTION_GENESIS, [storeId]);
        let newPrevious: Uint8Array = rowMac(to.keys.consumption, MacDomain.CONSUMPTION_GENESIS, [storeId]);
        if (meta.head_sequence === 0 && !macMatches(oldPrevious, meta.head_mac))
          throw new ConsumptionIntegrityError('META_MAC', 'consumption store metadata failed authentication under the old key');
        let expected = 1;
        for (const row of rows) {
          if (row.sequence !== expected) throw new ConsumptionIntegrityError('CHAIN_BROKEN', 'consumption chain has a gap');
          const oldMac = link(from.keys.consumption, row, oldPrevious);
          if (!macMatches(oldMac, row.mac))
            throw new ConsumptionIntegrityError('ROW_MAC', 'consumption row failed authentication under the old key');
          const newMac = link(to.keys.consumption, row, newPrevious);
          setRow.run(Buffer.from(newMac), row.sequence);
          oldPrevious = oldMac;
          newPrevious = newMac;
          expected += 1;
        }
        if (expected - 1 !== meta.head_sequence || !macMatches(oldPrevious, meta.head_mac)) {
          throw new ConsumptionIntegrityError('CHAIN_BROKEN', 'consumption chain does not reach its head');
        }
        const head = Buffer.from(newPrevious);
        db.prepare('UPDATE consumption_meta SET head_mac = ?, mac = ? WHERE id = 1').run(
          head,
          Buffer.from(consumptionMetaMac(to.keys.consumption, storeId, meta.head_sequence, head, to.epoch)),
        );
        writeKeyEpoch(db, to.epoch);
        return Object.freeze({ storeId, headSequence: meta.head_sequence, headMac: bytesToHex(newPrevious), rowsRemaced: rows.length + 1 });
      })
      .immediate();
    db.pragma('journal_mode = WAL');
    return result;
  } finally {
    db.close();
  }
}
