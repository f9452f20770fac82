import { assertObject, readBoundedFile, replaceFileAtomically } from '@pfsense-mcp/foundation';
import { dirname } from 'node:path';
import { bytesToHex, canonicalize, isHex64, isSafeToken } from '@pfsense-mcp/canonical';
import { AnchorError, StoreFileError } from '../store/contract-store-error.js';
import type { AnchorRecord, AntiRollbackAnchor } from './anti-rollback-anchor.js';
import { FIRST_KEY_EPOCH, isKeyEpoch } from '../store/key-epoch.js';
import { MacDomain, macMatches, rowMac } from '../integrity/row-mac.js';
import { assertSecureDirectory, assertSecureFile } from '../store/secure-store-path.js';

const MAX_ANCHOR_BYTES = 4096;

export interface FileAntiRollbackAnchorOptions {
  /** Anchor file path. Its directory must be 0700 and owned by the process user (ideally not the store's). */
  readonly path: string;
  /** MAC key (the store passes its derived anchor key). */
  readonly macKey: Uint8Array;
}

/**
 * File implementation of the anchor: one owner-only (0600) JSON file holding the mark and an HMAC over
 * it, replaced atomically (foundation's replaceFileAtomically: temp file + fsync + rename + directory fsync).
 * It only detects rollback of the database if the attacker cannot also roll this file back (see README: it
 * is a second file in the same trust domain unless kept on other media; an external witness can implement
 * the same interface).
 */
export class FileAntiRollbackAnchor implements AntiRollbackAnchor {
  readonly path: string;
  readonly #key: Uint8Array;
  /**
   * The file content this object last wrote and the mark it encodes. A read that finds exactly that content
   * returns that mark without parsing it and computing its MAC again: this process made both (docs/DESIGN.md §8).
   * The file is still checked and read every time; any other content is parsed and authenticated in full.
   */
  #written: { readonly content: string; readonly record: AnchorRecord } | null = null;

  constructor(options: FileAntiRollbackAnchorOptions) {
    assertObject(options, 'FileAntiRollbackAnchor: "options"');
    if (typeof options.path !== 'string' || options.path.length === 0)
      throw new TypeError('FileAntiRollbackAnchor: "path" must be a non-empty string');
    if (!(options.macKey instanceof Uint8Array) || options.macKey.length < 32)
      throw new TypeError('FileAntiRollbackAnchor: "macKey" must be at least 32 bytes');
    this.path = options.path;
    this.#key = new Uint8Array(options.macKey);
  }

  #mac(record: AnchorRecord): Uint8Array {
    const accepted = record.acceptedRestoreAt ?? null;
    const epoch = record.keyEpoch ?? FIRST_KEY_EPOCH;
    if (epoch !== FIRST_KEY_EPOCH) {
      return rowMac(this.#key, MacDomain.ANCHOR_V3, [
        record.storeId,
        String(record.sequence),
        record.headMac,
        accepted === null ? 'none' : String(accepted),
        String(epoch),
      ]);
    }
    if (accepted === null) return rowMac(this.#key, MacDomain.ANCHOR, [record.storeId, String(record.sequence), record.headMac]);
    return rowMac(this.#key, MacDomain.ANCHOR_V2, [record.storeId, String(record.sequence), record.headMac, String(accepted)]);
  }

  read(): AnchorRecord | null {
    try {
      assertSecureDirectory(dirname(this.path));
      if (!assertSecureFile(this.path, false)) return null;
    } catch (error) {
      if (error instanceof StoreFileError) throw new AnchorError('ANCHOR_UNSAFE_FILE', `anchor file unsafe (${error.code})`);
      throw error;
    }
    const text = readBoundedFile(this.path, MAX_ANCHOR_BYTES);
    if (text === null) throw new AnchorError('ANCHOR_CORRUPT', 'anchor file too large');
    if (this.#written !== null && this.#written.content === text) return this.#written.record;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new AnchorError('ANCHOR_CORRUPT', 'anchor file is not valid JSON');
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new AnchorError('ANCHOR_CORRUPT', 'anchor file malformed');
    const o = parsed as Record<string, unknown>;
    const keys = Object.keys(o).sort().join(',');
    // v1: no accepted restore; v2: `accepted_restore_at` (UTC ms) bound into the MAC; v3: also `key_epoch` (>= 2)
    // and `accepted_restore_at` may be null.
    const v2 = keys === 'accepted_restore_at,head_mac,mac,sequence,store_id,v' && o.v === 2;
    const v3 = keys === 'accepted_restore_at,head_mac,key_epoch,mac,sequence,store_id,v' && o.v === 3;
    const acceptedOk = (value: unknown): boolean => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
    if (
      !(v2 || v3 || (keys === 'head_mac,mac,sequence,store_id,v' && o.v === 1)) ||
      (v2 && !acceptedOk(o.accepted_restore_at)) ||
      (v3 &&
        ((o.accepted_restore_at !== null && !acceptedOk(o.accepted_restore_at)) ||
          !isKeyEpoch(o.key_epoch) ||
          o.key_epoch === FIRST_KEY_EPOCH)) ||
      !isSafeToken(o.store_id) ||
      typeof o.sequence !== 'number' ||
      !Number.isSafeInteger(o.sequence) ||
      o.sequence < 0 ||
      !isHex64(o.head_mac) ||
      !isHex64(o.mac)
    ) {
      throw new AnchorError('ANCHOR_CORRUPT', 'anchor file malformed');
    }
    const record: AnchorRecord = Object.freeze({
      storeId: o.store_id,
      sequence: o.sequence,
      headMac: o.head_mac,
      acceptedRestoreAt: v2 || v3 ? (o.accepted_restore_at as number | null) : null,
      // Absent before the first rotation (epoch 1), as in v1/v2 files.
      ...(v3 ? { keyEpoch: o.key_epoch as number } : {}),
    });
    if (!macMatches(this.#mac(record), Buffer.from(o.mac, 'hex'))) {
      throw new AnchorError(
        'ANCHOR_MAC',
        `anchor file failed authentication (it says master-key epoch ${record.keyEpoch ?? FIRST_KEY_EPOCH}: a key of another epoch, or tampered)`,
      );
    }
    return record;
  }

  write(record: AnchorRecord): void {
    const accepted = record.acceptedRestoreAt ?? null;
    if (accepted !== null && (!Number.isSafeInteger(accepted) || accepted < 0)) {
      throw new TypeError('FileAntiRollbackAnchor.write: "acceptedRestoreAt" must be null or non-negative integer UTC milliseconds');
    }
    const epoch = record.keyEpoch ?? FIRST_KEY_EPOCH;
    if (!isKeyEpoch(epoch)) throw new TypeError('FileAntiRollbackAnchor.write: "keyEpoch" must be an integer from 1 to 2^31-1');
    const body = { store_id: record.storeId, sequence: record.sequence, head_mac: record.headMac, mac: bytesToHex(this.#mac(record)) };
    const content = canonicalize(
      epoch !== FIRST_KEY_EPOCH
        ? { v: 3, ...body, accepted_restore_at: accepted, key_epoch: epoch }
        : accepted === null
          ? { v: 1, ...body }
          : { v: 2, ...body, accepted_restore_at: accepted },
    );
    this.#written = null;
    try {
      replaceFileAtomically(this.path, content);
      // What read() gives for this content (the version chosen above decides which fields the mark carries), kept
      // only for a mark that passes read()'s own field checks: a malformed one is still refused when read back.
      const wellFormed =
        isSafeToken(record.storeId) && Number.isSafeInteger(record.sequence) && record.sequence >= 0 && isHex64(record.headMac);
      this.#written = wellFormed
        ? {
            content,
            record: Object.freeze({
              storeId: record.storeId,
              sequence: record.sequence,
              headMac: record.headMac,
              acceptedRestoreAt: accepted,
              ...(epoch !== FIRST_KEY_EPOCH ? { keyEpoch: epoch } : {}),
            }),
          }
        : null;
    } catch (error) {
      throw new AnchorError('ANCHOR_WRITE_FAILED', `anchor write failed (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
}
