import { canonicalBytes, isSafeToken } from '@pfsense-mcp/canonical';
import { deepFreeze } from '@pfsense-mcp/foundation';
import { ContractNotFoundError, RecordIntegrityError, StaleStateVersionError } from '../store/contract-store-error.js';
import { recoveryContractSchema } from './recovery-contract.js';
import type { RecoveryContract } from './recovery-contract.js';
import { MacDomain, macMatches, rowMac } from '../integrity/row-mac.js';
import type { ContractRow } from '../store/store-statements.js';
import type { StoreState } from '../store/store-state.js';

function verifyRowMac(s: StoreState, row: ContractRow): void {
  const expected = rowMac(s.keys.recordMac, MacDomain.CONTRACT, [s.storeId, row.contract_id, row.record]);
  if (!macMatches(expected, row.mac)) throw new RecordIntegrityError('RECORD_MAC', row.contract_id, 'contract row failed authentication');
}

/** The record bytes as text, without copying the Buffer SQLite handed over. */
function recordText(row: ContractRow): string {
  return (Buffer.isBuffer(row.record) ? row.record : Buffer.from(row.record)).toString('utf8');
}

function checkIndexColumns(row: ContractRow, r: RecoveryContract): void {
  if (
    r.contract_id !== row.contract_id ||
    r.operation_id !== row.operation_id ||
    r.provenance.authorization_id !== row.authorization_id ||
    r.target_identity_digest !== row.target_identity_digest ||
    r.state !== row.state ||
    r.state_version !== row.state_version ||
    r.expires_at !== row.expires_at ||
    r.terminal_at !== row.terminal_at
  ) {
    throw new RecordIntegrityError('INDEX_MISMATCH', row.contract_id, 'contract index columns differ from the authenticated record');
  }
}

/**
 * Open-time form of verifyRow: the MAC and the index columns, with a plain parse (the authenticated bytes
 * are this store's own canonical record; the full schema parse stays on the load path).
 */
export function authenticRecord(s: StoreState, row: ContractRow): RecoveryContract {
  verifyRowMac(s, row);
  let r: RecoveryContract;
  try {
    r = JSON.parse(recordText(row)) as RecoveryContract;
  } catch {
    throw new RecordIntegrityError('RECORD_MALFORMED', row.contract_id, 'contract record is not valid JSON');
  }
  if (
    r === null ||
    typeof r !== 'object' ||
    r.provenance === null ||
    typeof r.provenance !== 'object' ||
    r.protected_artifacts === null ||
    typeof r.protected_artifacts !== 'object'
  ) {
    throw new RecordIntegrityError('RECORD_MALFORMED', row.contract_id, 'contract record does not match the schema');
  }
  checkIndexColumns(row, r);
  return r;
}

/**
 * Authenticates the row (MAC over store id, row key and record bytes), parses it, cross-checks index columns. A row
 * holding exactly the bytes and MAC this process last wrote or authenticated for that contract is that record
 * (verified-records.ts): only its index columns are checked again.
 */
export function verifyRow(s: StoreState, row: ContractRow): RecoveryContract {
  const known = s.records.recall(row);
  if (known !== undefined) {
    checkIndexColumns(row, known);
    return known;
  }
  verifyRowMac(s, row);
  let parsed: unknown;
  try {
    parsed = JSON.parse(recordText(row));
  } catch {
    throw new RecordIntegrityError('RECORD_MALFORMED', row.contract_id, 'contract record is not valid JSON');
  }
  const result = recoveryContractSchema.safeParse(parsed);
  if (!result.success) throw new RecordIntegrityError('RECORD_MALFORMED', row.contract_id, 'contract record does not match the schema');
  const r = result.data as RecoveryContract;
  checkIndexColumns(row, r);
  const frozen = deepFreeze(r) as RecoveryContract;
  s.records.authenticated(row, frozen);
  return frozen;
}

/** One authenticated contract, inside the caller's transaction. */
export function loadIn(s: StoreState, contractId: string): RecoveryContract {
  if (!isSafeToken(contractId)) throw new TypeError('contract store: "contractId" must be a safe token');
  const row = s.stmt.getContract.get(contractId) as ContractRow | undefined;
  if (row === undefined) throw new ContractNotFoundError(contractId);
  return verifyRow(s, row);
}

/**
 * Inserts (`previous` null) or CAS-updates (on `previous.state_version`) the row of `record`, with its new
 * MAC. The update sets the index columns only when they changed, so an unchanged index is not rewritten.
 */
export function writeContract(s: StoreState, record: RecoveryContract, previous: RecoveryContract | null): void {
  const bytes = canonicalBytes(record);
  const mac = Buffer.from(rowMac(s.keys.recordMac, MacDomain.CONTRACT, [s.storeId, record.contract_id, bytes]));
  const recordBuf = Buffer.from(bytes);
  writeRow(s, record, previous, recordBuf, mac);
  s.records.wrote(record, previous, recordBuf, mac);
}

function writeRow(s: StoreState, record: RecoveryContract, previous: RecoveryContract | null, recordBuf: Buffer, mac: Buffer): void {
  if (previous === null) {
    s.stmt.insertContract.run(
      record.contract_id,
      record.operation_id,
      record.provenance.authorization_id,
      record.target_identity_digest,
      record.state,
      record.state_version,
      record.expires_at,
      record.terminal_at,
      recordBuf,
      mac,
    );
    return;
  }
  const expectedVersion = previous.state_version;
  const sameTimes = record.expires_at === previous.expires_at && record.terminal_at === previous.terminal_at;
  const info = !sameTimes
    ? s.stmt.updateContract.run(
        record.state,
        record.state_version,
        record.expires_at,
        record.terminal_at,
        recordBuf,
        mac,
        record.contract_id,
        expectedVersion,
      )
    : record.state !== previous.state
      ? s.stmt.updateContractState.run(record.state, record.state_version, recordBuf, mac, record.contract_id, expectedVersion)
      : s.stmt.updateContractRecord.run(record.state_version, recordBuf, mac, record.contract_id, expectedVersion);
  if (info.changes !== 1) throw new StaleStateVersionError(record.contract_id, expectedVersion, -1);
}
