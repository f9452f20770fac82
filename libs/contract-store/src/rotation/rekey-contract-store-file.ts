import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { bytesToHex, canonicalBytes } from '@pfsense-mcp/canonical';
import type { CanonicalValue } from '@pfsense-mcp/canonical';
import { aeadOpen, aeadSeal } from '@pfsense-mcp/crypto';
import { auditGenesisMac, auditRowMac } from '../audit/audit-chain.js';
import { AuditChainError, KeyEpochMismatchError, RecordIntegrityError } from '../store/contract-store-error.js';
import { epochParts, readKeyEpoch, writeKeyEpoch } from '../store/key-epoch.js';
import { CONTRACT_SCHEMA_VERSION, PROTECTED_ARTIFACT_PURPOSES } from '../model/recovery-contract.js';
import { MacDomain, macMatches, rowMac } from '../integrity/row-mac.js';
import type { StoreKeys } from '../store/store-keys.js';

/** One side of a re-key: the derived keys and the epoch they belong to. */
export interface EpochKeys {
  readonly keys: StoreKeys;
  readonly epoch: number;
}

/** What a re-key of one contract-store file did (counts only, value-free) and the new audit head. */
export interface ContractStoreRekey {
  readonly storeId: string;
  readonly headSequence: number;
  /** The audit head MAC under the new key (64 hex; genesis for an empty chain): what the new anchor records. */
  readonly headMac: string;
  readonly rowsRemaced: number;
  readonly artifactsReencrypted: number;
}

interface MetaRow {
  store_id: string;
  schema_version: number;
  created_at: number;
  mac: Buffer;
}

interface ArtifactRef {
  envelope_sha256: string;
  envelope_bytes: number;
}

function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Same AAD as the store writes (contract id, purpose, schema version): an envelope cannot move between rows. */
function aadOf(contractId: string, purpose: string): Uint8Array {
  return canonicalBytes({ contract_id: contractId, purpose, schema_version: CONTRACT_SCHEMA_VERSION });
}

/**
 * Re-keys a CLOSED copy of a contract store (README "Rotating the master key"): in one SQLite transaction
 * every row is first authenticated under the old key (metadata, the whole audit chain, each contract row,
 * each protected artifact by AEAD and by its recorded digest, reservations, the rate row) and rewritten under
 * the new one — the audit chain re-MACed from a new genesis, each artifact decrypted and sealed again with the
 * new encryption key (the record's envelope digests follow, then the row's MAC), the epoch in the header.
 * Anything that fails under the old key aborts with the store's own error and leaves the copy unchanged.
 * Never used on a live store: the caller made the copy and no one else has it open.
 */
export function rekeyContractStoreFile(path: string, from: EpochKeys, to: EpochKeys): ContractStoreRekey {
  if (typeof path !== 'string' || path.length === 0) throw new TypeError('rekeyContractStoreFile: "path" must be a non-empty path');
  if (to.epoch <= from.epoch) throw new TypeError('rekeyContractStoreFile: the new epoch must follow the old one');
  const db = new Database(path, { fileMustExist: true });
  try {
    db.pragma('journal_mode = DELETE');
    db.pragma('synchronous = FULL');
    db.pragma('secure_delete = ON');
    db.defaultSafeIntegers(false);
    const result = db
      .transaction((): ContractStoreRekey => {
        const epoch = readKeyEpoch(db);
        if (epoch !== from.epoch) throw new KeyEpochMismatchError('the rotation journal', epoch, from.epoch);
        const meta = db.prepare('SELECT store_id, schema_version, created_at, mac FROM store_meta WHERE id = 1').get() as
          MetaRow | undefined;
        if (meta === undefined) throw new RecordIntegrityError('META_MISSING', null, 'store metadata row is missing');
        const metaParts = [meta.store_id, String(meta.schema_version), String(meta.created_at)];
        if (!macMatches(rowMac(from.keys.recordMac, MacDomain.META, [...metaParts, ...epochParts(from.epoch)]), meta.mac)) {
          throw new RecordIntegrityError('META_MAC', null, 'store metadata failed authentication under the old key');
        }
        const storeId = meta.store_id;
        db.prepare('UPDATE store_meta SET mac = ? WHERE id = 1').run(
          Buffer.from(rowMac(to.keys.recordMac, MacDomain.META, [...metaParts, ...epochParts(to.epoch)])),
        );
        let rows = 1;

        // The audit chain: verified link by link under the old key, re-linked under the new one.
        const audit = db.prepare('SELECT sequence, contract_id, body, mac FROM audit_events ORDER BY sequence').all() as {
          sequence: number;
          contract_id: string;
          body: Buffer;
          mac: Buffer;
        }[];
        const setAudit = db.prepare('UPDATE audit_events SET mac = ? WHERE sequence = ?');
        let oldPrevious = auditGenesisMac(from.keys.auditChain, storeId);
        let newPrevious = auditGenesisMac(to.keys.auditChain, storeId);
        let expected = 1;
        for (const row of audit) {
          if (row.sequence !== expected) throw new AuditChainError(expected);
          const oldMac = auditRowMac(from.keys.auditChain, storeId, row.sequence, row.contract_id, oldPrevious, row.body);
          if (!macMatches(oldMac, row.mac)) throw new AuditChainError(expected);
          const newMac = auditRowMac(to.keys.auditChain, storeId, row.sequence, row.contract_id, newPrevious, row.body);
          setAudit.run(Buffer.from(newMac), row.sequence);
          oldPrevious = oldMac;
          newPrevious = newMac;
          expected += 1;
          rows += 1;
        }

        // Contract rows, and the protected artifacts of the unpurged ones.
        const contracts = db.prepare('SELECT contract_id, record, mac FROM contracts ORDER BY contract_id').all() as {
          contract_id: string;
          record: Buffer;
          mac: Buffer;
        }[];
        const getArtifact = db.prepare('SELECT envelope FROM protected_artifacts WHERE contract_id = ? AND purpose = ?');
        const setArtifact = db.prepare('UPDATE protected_artifacts SET envelope = ? WHERE contract_id = ? AND purpose = ?');
        const setContract = db.prepare('UPDATE contracts SET record = ?, mac = ? WHERE contract_id = ?');
        let artifacts = 0;
        for (const row of contracts) {
          if (!macMatches(rowMac(from.keys.recordMac, MacDomain.CONTRACT, [storeId, row.contract_id, row.record]), row.mac)) {
            throw new RecordIntegrityError('RECORD_MAC', row.contract_id, 'contract row failed authentication under the old key');
          }
          let bytes: Uint8Array = row.record;
          const record = JSON.parse(Buffer.from(row.record).toString('utf8')) as {
            artifacts_purged_at: number | null;
            protected_artifacts: Record<string, ArtifactRef>;
          };
          if (record.artifacts_purged_at === null) {
            const refs: Record<string, ArtifactRef> = {};
            for (const purpose of PROTECTED_ARTIFACT_PURPOSES) {
              const ref = record.protected_artifacts[purpose];
              const found = getArtifact.get(row.contract_id, purpose) as { envelope: Buffer } | undefined;
              if (
                ref === undefined ||
                found === undefined ||
                found.envelope.length !== ref.envelope_bytes ||
                sha256Hex(found.envelope) !== ref.envelope_sha256
              ) {
                throw new RecordIntegrityError(
                  'ARTIFACT_DIGEST',
                  row.contract_id,
                  `protected artifact ${purpose} does not match the authenticated record`,
                );
              }
              const aad = aadOf(row.contract_id, purpose);
              const plaintext = aeadOpen(from.keys.encryption, found.envelope, aad);
              let sealed: Buffer;
              try {
                sealed = Buffer.from(aeadSeal(to.keys.encryption, plaintext, aad));
              } finally {
                plaintext.fill(0);
              }
              setArtifact.run(sealed, row.contract_id, purpose);
              refs[purpose] = { envelope_sha256: sha256Hex(sealed), envelope_bytes: sealed.length };
              artifacts += 1;
            }
            bytes = canonicalBytes({ ...record, protected_artifacts: refs } as unknown as CanonicalValue);
          }
          const mac = rowMac(to.keys.recordMac, MacDomain.CONTRACT, [storeId, row.contract_id, bytes]);
          setContract.run(Buffer.from(bytes), Buffer.from(mac), row.contract_id);
          rows += 1;
        }

        const reservations = db.prepare('SELECT target_identity_digest, contract_id, acquired_at, mac FROM target_reservations').all() as {
          target_identity_digest: string;
          contract_id: string;
          acquired_at: number;
          mac: Buffer;
        }[];
        const setReservation = db.prepare('UPDATE target_reservations SET mac = ? WHERE target_identity_digest = ?');
        for (const row of reservations) {
          const parts = [storeId, row.target_identity_digest, row.contract_id, String(row.acquired_at)];
          if (!macMatches(rowMac(from.keys.recordMac, MacDomain.RESERVATION, parts), row.mac)) {
            throw new RecordIntegrityError('RESERVATION_MAC', row.contract_id, 'reservation row failed authentication under the old key');
          }
          setReservation.run(Buffer.from(rowMac(to.keys.recordMac, MacDomain.RESERVATION, parts)), row.target_identity_digest);
          rows += 1;
        }

        const rate = db.prepare('SELECT scope, state, mac FROM rate_windows').all() as { scope: string; state: Buffer; mac: Buffer }[];
        const setRate = db.prepare('UPDATE rate_windows SET mac = ? WHERE scope = ?');
        for (const row of rate) {
          if (!macMatches(rowMac(from.keys.recordMac, MacDomain.RATE_WINDOW, [storeId, row.scope, row.state]), row.mac)) {
            throw new RecordIntegrityError('RATE_STATE_MAC', null, 'rate window row failed authentication under the old key');
          }
          setRate.run(Buffer.from(rowMac(to.keys.recordMac, MacDomain.RATE_WINDOW, [storeId, row.scope, row.state])), row.scope);
          rows += 1;
        }

        writeKeyEpoch(db, to.epoch);
        return Object.freeze({
          storeId,
          headSequence: expected - 1,
          headMac: bytesToHex(newPrevious),
          rowsRemaced: rows,
          artifactsReencrypted: artifacts,
        });
      })
      .immediate();
    // Back to the store's journal mode, so the live store opens the file exactly as it left it.
    db.pragma('journal_mode = WAL');
    return result;
  } finally {
    db.close();
  }
}
